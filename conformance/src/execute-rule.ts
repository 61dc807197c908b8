import { MemoryConfigurationError, MemoryTimeoutError } from '@memplane/core';
import { defaultRuleTimeoutMs, type ConformanceOptions } from './conformance-options';
import type { ConformanceRule, RuleNeed } from './conformance-rule';
import { AdapterFactoryError, assertMemoryAdapter } from './assert-memory-adapter';
import { createRuleContext } from './rule-context';
import { ScopeAudit } from './scope-audit';

/** How a rule ended, when it did not fail. A failing rule throws instead. */
export type RuleOutcome = { status: 'passed' } | { status: 'skipped'; reason: string };

const needDescriptions: Record<RuleNeed, { what: string; option: string; otherwise: string }> = {
  faults: {
    what: 'a fault injector',
    option: 'faults',
    otherwise: ' (an operation the adapter serves without any remote call leaves it out of capabilities.remoteOperations, and its errors rules are skipped)',
  },
  peer: { what: 'a peer adapter over the same backend', option: 'createPeerAdapter', otherwise: '' },
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
 * Runs one rule and returns how it ended; throws when it fails.
 * 1. a fresh adapter is created and the rule's `requires` may skip it from the declared
 *    capabilities, the only source of skips, with the reason;
 * 2. a missing need (`faults`, a peer) fails it, telling the user what to pass;
 * 3. otherwise the rule runs, within `ruleTimeoutMs`, and fails when the adapter (or its peer)
 *    returned a record outside the requested scope, even where `defineMemoryAdapter` dropped it.
 *
 * Throws `NotAMemoryAdapterError` when `createAdapter()` returns something that is not an adapter,
 * and `AdapterFactoryError` when it throws.
 */
export async function executeRule(rule: ConformanceRule, options: ConformanceOptions): Promise<RuleOutcome> {
  let created: unknown;
  try {
    created = await options.createAdapter();
  } catch (error) {
    throw new AdapterFactoryError(error);
  }
  assertMemoryAdapter(created);
  const audit = new ScopeAudit();
  const adapter = audit.watch(created);
  const createPeer = options.createPeerAdapter;
  const watchedOptions: ConformanceOptions =
    createPeer === undefined
      ? options
      : {
          ...options,
          createPeerAdapter: async () => {
            const peer: unknown = await createPeer();
            assertMemoryAdapter(peer);
            return audit.watch(peer);
          },
        };
  const notApplicable = rule.requires?.(adapter.capabilities, options);
  if (notApplicable !== undefined) return { status: 'skipped', reason: notApplicable };
  const need = missingNeed(rule, options);
  if (need !== undefined) {
    const { what, option, otherwise } = needDescriptions[need];
    throw new MemoryConfigurationError({
      message: `Rule ${rule.id} needs ${what}: export \`${option}\` from the conformance module (the CLI), or pass it in the options of runConformance or describeMemoryAdapterConformance${rule.family === 'errors' ? otherwise : ''}.`,
    });
  }
  try {
    await withRuleTimeout(rule.id, options.ruleTimeoutMs ?? defaultRuleTimeoutMs, rule.run(createRuleContext(adapter, watchedOptions)));
  } catch (error) {
    audit.assertNoViolation(rule.id, error);
    throw error;
  } finally {
    // A rule that timed out or threw mid-way may have left a fault in force; the next rule must not inherit it.
    if (rule.needs?.includes('faults') === true) await options.faults?.reset();
  }
  audit.assertNoViolation(rule.id);
  return { status: 'passed' };
}
