import { performance } from 'node:perf_hooks';
import type { MemoryAdapterCapabilities } from '@memplane/core';
import { AdapterFactoryError, NotAMemoryAdapterError } from './assert-memory-adapter';
import { describeError } from './assertions';
import { selectRules, validateConformanceOptions, type ConformanceOptions } from './conformance-options';
import { adapterGuideLink, type ConformanceRule, type RuleFamily } from './conformance-rule';
import { executeRule } from './execute-rule';
import { allRules } from './rules/index';
import { VERSION } from './version';

/** How to fix an adapter that failed a rule. */
export interface ConformanceFix {
  /** What to change in the adapter. */
  hint: string;
  /** The link to the section of the adapter guide that explains it. */
  guide: string;
}

/** The result of one rule. */
export interface ConformanceRuleResult {
  /** The rule id. */
  id: string;
  /** The rule family. */
  family: RuleFamily;
  /** What the rule checks. */
  description: string;
  /** How the rule ended. */
  status: 'passed' | 'failed' | 'skipped';
  /** Why the rule was skipped, for skipped rules. */
  reason?: string;
  /** What went wrong, for failed rules: the assertion message or the unexpected error. */
  error?: string;
  /** How to fix the adapter, for failed rules whose rule has a fix hint (every rule of the suite does). */
  fix?: ConformanceFix;
  /** How long the rule took, in milliseconds. */
  durationMs: number;
}

/** The adapter a conformance run tested, as its first `createAdapter()` returned it. */
export interface ConformanceReportAdapter {
  /** The adapter's `key`. */
  key: string;
  /** The adapter's capability manifest, as declared. */
  capabilities: MemoryAdapterCapabilities;
}

/** The report of a conformance run. */
export interface ConformanceReport {
  /** The `name` of the options. */
  name: string;
  /** The version of `@memplane/conformance` that ran (`0.0.0-source` when run from its sources). */
  suiteVersion: string;
  /** When the run started, as an ISO 8601 timestamp. */
  startedAt: string;
  /** The Node.js version that ran the suite (`process.version`). */
  nodeVersion: string;
  /** The adapter under test; absent when no rule ran. */
  adapter?: ConformanceReportAdapter;
  /** One result per selected rule, in suite order. */
  results: ConformanceRuleResult[];
  /** How many rules passed. */
  passed: number;
  /** How many rules failed. */
  failed: number;
  /** How many rules were skipped, each with its reason. */
  skipped: number;
}

/** Callbacks of a run, for progress displays. They never change the outcome. */
export interface ConformanceRunHooks {
  /** Called before each selected rule runs, with its position and the number of selected rules. */
  onRuleStart?: (rule: ConformanceRule, index: number, total: number) => void;
}

/**
 * Runs the given rules sequentially under the options. Used by `runConformance` and the runner's
 * own tests. Rejects with `MemoryValidationError` for invalid options, and with
 * `NotAMemoryAdapterError` (a `MemoryConfigurationError`) when `createAdapter()` returns
 * something that is not a `MemoryAdapter`, or `AdapterFactoryError` when it throws at the first
 * rule (a later throw fails that rule only).
 */
export async function runRules(
  rules: ReadonlyArray<ConformanceRule>,
  options: ConformanceOptions,
  hooks: ConformanceRunHooks = {},
): Promise<ConformanceReport> {
  const valid = validateConformanceOptions(options, rules);
  const startedAt = new Date().toISOString();
  let adapter: ConformanceReportAdapter | undefined;
  // Records the first adapter for the report; `valid.createAdapter()` keeps the caller's `this`.
  const recording: ConformanceOptions = {
    ...valid,
    createAdapter: async () => {
      const created = await valid.createAdapter();
      if (adapter === undefined && typeof created?.key === 'string' && typeof created.capabilities === 'object') {
        adapter = { key: created.key, capabilities: JSON.parse(JSON.stringify(created.capabilities)) as MemoryAdapterCapabilities };
      }
      return created;
    },
  };
  const selected = selectRules(rules, valid);
  const results: ConformanceRuleResult[] = [];
  for (const rule of selected) {
    hooks.onRuleStart?.(rule, results.length, selected.length);
    const started = performance.now();
    const base = { id: rule.id, family: rule.family, description: rule.description };
    try {
      const outcome = await executeRule(rule, recording);
      const durationMs = performance.now() - started;
      results.push(
        outcome.status === 'skipped'
          ? { ...base, status: 'skipped', reason: outcome.reason, durationMs }
          : { ...base, status: 'passed', durationMs },
      );
    } catch (error) {
      // No adapter at all: one clear error for the run, not the same failure for every rule.
      if (NotAMemoryAdapterError.is(error) || (AdapterFactoryError.is(error) && results.length === 0)) throw error;
      const fix = rule.fix === undefined ? {} : { fix: { hint: rule.fix.hint, guide: adapterGuideLink(rule.fix.guideSection) } };
      results.push({ ...base, status: 'failed', error: describeFailure(error), ...fix, durationMs: performance.now() - started });
    }
  }
  const count = (status: ConformanceRuleResult['status']) => results.filter((result) => result.status === status).length;
  return {
    name: valid.name,
    suiteVersion: VERSION,
    startedAt,
    nodeVersion: process.version,
    ...(adapter === undefined ? {} : { adapter }),
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
  };
}

function describeFailure(error: unknown): string {
  // Assertion messages are written to be read as they are; anything else is named with its class and code.
  if (error instanceof Error && error.name === 'AssertionError') return error.message;
  return `Threw ${describeError(error)}`;
}

/**
 * Runs every conformance rule against the adapter, one after the other, and returns the report.
 * Rejects with `MemoryValidationError` naming the field when the options are invalid.
 */
export async function runConformance(options: ConformanceOptions, hooks: ConformanceRunHooks = {}): Promise<ConformanceReport> {
  return runRules(allRules, options, hooks);
}
