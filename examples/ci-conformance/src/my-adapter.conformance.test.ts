import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { createAdapter, createPeerAdapter, faults } from '../conformance';

// One vitest test per conformance rule. Rules for surfaces the adapter does not declare in
// its capabilities are skipped with the reason shown; to skip any other rule, add
// `skip: { 'rule.id': 'why' }` — a skip without a reason is refused.
describeMemoryAdapterConformance({
  name: 'memory',
  createAdapter,
  createPeerAdapter,
  faults,
});
