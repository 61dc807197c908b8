import { describe, it } from 'vitest';
import { defaultRuleTimeoutMs, selectRules, validateConformanceOptions, type ConformanceOptions } from './conformance-options';
import { adapterGuideLink, type ConformanceRule } from './conformance-rule';
import { executeRule } from './execute-rule';
import { allRules } from './rules/index';

declare module 'vitest' {
  interface TaskMeta {
    /** The conformance rule id a test runs, set by `describeMemoryAdapterConformance`. */
    ruleId?: string;
  }
}

/** Adds the rule's fix hint to an assertion failure, so the vitest output says how to fix it. */
export function withFixHint(error: unknown, rule: ConformanceRule): unknown {
  if (rule.fix !== undefined && error instanceof Error && error.name === 'AssertionError') {
    error.message = `${error.message}\nFix: ${rule.fix.hint} See ${adapterGuideLink(rule.fix.guideSection)}`;
  }
  return error;
}

/**
 * Registers the conformance suite with vitest: `describe("memplane conformance: <name>")` with one
 * `it("[<rule id>] <description>")` per rule. A skipped rule is skipped visibly with its reason
 * (`context.skip(reason)`); a failing rule fails with the rule's assertion message, followed by
 * its fix hint and the link to the section of the adapter guide.
 * Throws `MemoryValidationError` at once when the options are invalid.
 */
export function describeMemoryAdapterConformance(options: ConformanceOptions): void {
  registerRules(allRules, options);
}

/** Registers the given rules; `describeMemoryAdapterConformance` with all rules is the public form. */
export function registerRules(rules: ReadonlyArray<ConformanceRule>, options: ConformanceOptions): void {
  const valid = validateConformanceOptions(options, rules);
  const timeoutMs = valid.ruleTimeoutMs ?? defaultRuleTimeoutMs;
  describe(`memplane conformance: ${valid.name}`, () => {
    for (const rule of selectRules(rules, valid)) {
      it(
        `[${rule.id}] ${rule.description}`,
        async (context) => {
          context.task.meta.ruleId = rule.id;
          let outcome: Awaited<ReturnType<typeof executeRule>>;
          try {
            outcome = await executeRule(rule, valid);
          } catch (error) {
            throw withFixHint(error, rule);
          }
          if (outcome.status === 'skipped') context.skip(outcome.reason);
        },
        // vitest's own timeout sits above the rule's, so the rule's clearer timeout error wins.
        timeoutMs + 5_000,
      );
    }
  });
}
