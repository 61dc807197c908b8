import type { ConformanceRule } from '../conformance-rule';
import { scopeCompanyRules } from './scope-company-rules';
import { scopeFieldRules, scopeMatchingRules } from './scope-field-rules';
import { scopePeerRules } from './scope-peer-rules';

/**
 * The `scope` family: company isolation on every operation, isolation of every scope field on
 * query and list, the matching rule for unset fields, source/scope mismatches, and peers.
 */
export const scopeRules: ConformanceRule[] = [
  ...scopeCompanyRules,
  ...scopeFieldRules,
  ...scopeMatchingRules,
  ...scopePeerRules,
];
