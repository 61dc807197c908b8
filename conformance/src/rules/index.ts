import type { ConformanceRule } from '../conformance-rule';
import { capabilitiesRules } from './capabilities-rules';
import { errorRules } from './error-rules';
import { extractionRules } from './extraction-rules';
import { forgetRules } from './forget-rules';
import { paginationRules } from './pagination-rules';
import { provenanceRules } from './provenance-rules';
import { withFixHints } from './rule-fix-hints';
import { scopeRules } from './scope-rules';
import { usageRules } from './usage-rules';
import { validationRules } from './validation-rules';

/** Every conformance rule, in the order the suite runs them, each with its fix hint. */
export const allRules: ReadonlyArray<ConformanceRule> = withFixHints([
  ...capabilitiesRules,
  ...scopeRules,
  ...provenanceRules,
  ...usageRules,
  ...paginationRules,
  ...forgetRules,
  ...validationRules,
  ...errorRules,
  ...extractionRules,
]);

/** The ids of every conformance rule, in suite order. */
export const conformanceRuleIds: ReadonlyArray<string> = allRules.map((rule) => rule.id);
