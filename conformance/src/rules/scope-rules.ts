import type { ConformanceRule } from '../conformance-rule';
import { scopeCompanyRules } from './scope-company-rules';
import { scopeFieldRules, scopeMatchingRules } from './scope-field-rules';
import { scopeHandleRules } from './scope-handle-rules';
import { scopePeerRules } from './scope-peer-rules';

/**
 * The `scope` family: company isolation on every operation, isolation of every scope field on
 * query and list and of the handle operations (get, forget, correct), the matching rule for unset fields, source/scope mismatches, and peers.
 */
export const scopeRules: ConformanceRule[] = [
  ...scopeCompanyRules,
  ...scopeFieldRules,
  ...scopeHandleRules,
  ...scopeMatchingRules,
  ...scopePeerRules,
];
