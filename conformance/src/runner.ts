/**
 * The framework-free entry `@memplane/conformance/runner`: run the suite from code or a CLI,
 * without vitest anywhere in the import graph.
 */
export {
  runConformance,
  runRules,
  type ConformanceFix,
  type ConformanceReport,
  type ConformanceReportAdapter,
  type ConformanceRuleResult,
  type ConformanceRunHooks,
} from './run-conformance';
export { formatReport } from './format-report';
export { formatJunitReport } from './format-junit-report';
export { AdapterFactoryError, NotAMemoryAdapterError } from './assert-memory-adapter';
export { VitestEntryFromCommonJsError } from './vitest-entry-from-commonjs-error';
export { loadConformanceModule, type LoadedConformanceModule } from './load-conformance-module';
export {
  conformanceCliExitCodes,
  conformanceCliUsage,
  runConformanceCli,
  type ConformanceCliIo,
} from './cli/run-conformance-cli';
export type { CliStream } from './cli/terminal-output';
export { VERSION } from './version';
export { defaultRuleTimeoutMs, validateConformanceOptions, type ConformanceOptions } from './conformance-options';
export {
  adapterGuideUrl,
  allOf,
  ruleFamilies,
  whenDeclared,
  whenNotDeclared,
  type ConformanceRule,
  type RuleFamily,
  type RuleFixHint,
  type RuleNeed,
} from './conformance-rule';
export { conformanceBindingKey, markedText, type RuleContext, type ScopeFields } from './rule-context';
export type { RuleIdentifiers } from './fixtures/rule-identifiers';
export { conformanceAssertions, type ErrorExpectation } from './assertions';
export { executeRule, type RuleOutcome } from './execute-rule';
export { allRules, conformanceRuleIds } from './rules/index';
