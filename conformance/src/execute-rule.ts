import { MemoryConfigurationError, MemoryTimeoutError } from '@memplane/core';
import { defaultRuleTimeoutMs, findExplicitSkip, type ConformanceOptions } from './conformance-options';
import type { ConformanceRule, RuleNeed } from './conformance-rule';
import { createRuleContext } from './rule-context';

/** How a rule ended, when it did not fail. A failing rule throws instead. */
export type RuleOutcome = { status: 'passed' } | { status: 'skipped'; reason: string };

const needDescriptions: Record<RuleNeed, { what: string; option: string }> = {
  faults: { what: 'a fault injector', option: 'faults' },
  peer: { what: 'a peer adapter over the same backend', option: 'createPeerAdapter' },
};

function missingNeed(rule: ConformanceRule, options: ConformanceOptions): RuleNeed | undefined {
  return (rule.needs ?? []).find((need) =>
    need === 'faults' ? options.faults === undefined : options.createPeerAdapter === undefined,
  );
}

async function withRuleTimeout(ruleId: string, timeoutMs: number, work: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MemoryTimeoutError({ timeoutMs, operation: `Rule ${ruleId}` })), timeoutMs);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one rule under the skip policy and returns how it ended; throws when it fails.
 * 1. an explicit `skip` entry (rule id or prefix) skips it, with the entry's reason;
 * 2. otherwise a fresh adapter is created and the rule's `requires` may skip it from the
 *    declared capabilities;
 * 3. a missing need (`faults`, a peer) fails it, telling the user what to pass or skip;
 * 4. otherwise the rule runs, within `ruleTimeoutMs`.
 */
export async function executeRule(rule: ConformanceRule, options: ConformanceOptions): Promise<RuleOutcome> {
  const explicitSkip = findExplicitSkip(options, rule.id);
  if (explicitSkip !== undefined) {
    return { status: 'skipped', reason: `skipped by options.skip[${JSON.stringify(explicitSkip.key)}]: ${explicitSkip.reason}` };
  }
  const adapter = await options.createAdapter();
  const notApplicable = rule.requires?.(adapter.capabilities, options);
  if (notApplicable !== undefined) return { status: 'skipped', reason: notApplicable };
  const need = missingNeed(rule, options);
  if (need !== undefined) {
    const { what, option } = needDescriptions[need];
    throw new MemoryConfigurationError({
      message:
        `Rule ${rule.id} needs ${what}: pass \`${option}\` in the conformance options, ` +
        `or skip it with a reason, such as skip: { ${JSON.stringify(rule.family === 'errors' ? 'errors' : rule.id)}: '<why this adapter cannot be tested for it>' }.`,
    });
  }
  try {
    await withRuleTimeout(rule.id, options.ruleTimeoutMs ?? defaultRuleTimeoutMs, rule.run(createRuleContext(adapter, options)));
  } finally {
    // A rule that timed out or threw mid-way may have left a fault in force; the next rule must not inherit it.
    if (rule.needs?.includes('faults') === true) await options.faults?.reset();
  }
  return { status: 'passed' };
}
