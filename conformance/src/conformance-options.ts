import { type MemoryAdapter, type MemoryFaultInjector, parseInput } from '@memplane/core';
import { z } from 'zod';
import type { ConformanceRule } from './conformance-rule';

/** Settings of one conformance run, for `runConformance` and `describeMemoryAdapterConformance`. */
export interface ConformanceOptions {
  /** The name shown in the report and the vitest suite title, such as `@memplane/memory`. */
  name: string;
  /**
   * Creates the adapter under test. Called once per rule, so every rule starts from a fresh
   * adapter object (rules also use fresh company ids, so a shared backend is fine).
   */
  createAdapter: () => MemoryAdapter | Promise<MemoryAdapter>;
  /**
   * Creates a second adapter object over the same backend as the adapter most recently returned
   * by `createAdapter` (another process, another client). Needed by the `scope.peer` rules: without
   * it they fail unless `skip` names them with a reason.
   */
  createPeerAdapter?: () => MemoryAdapter | Promise<MemoryAdapter>;
  /**
   * Waits until earlier writes are visible to reads, for eventually consistent backends.
   * Called after writes and between extraction-job polls. Default: returns at once.
   * It must not sleep for a fixed time in tests; drain the backend's queue instead.
   */
  waitForConsistency?: () => void | Promise<void>;
  /**
   * Injects provider faults into the adapters `createAdapter` returns. Needed by the `errors` rules
   * and the extraction failure and retry rules: without it they fail unless `skip` names them.
   */
  faults?: MemoryFaultInjector;
  /**
   * Rules to skip, by rule id or id prefix (a family such as `errors`, or `scope.peer`), each with
   * the reason shown in the report. An empty reason is refused: every skip says why.
   */
  skip?: Partial<Record<string, string>>;
  /** Runs only the rules whose id starts with one of these prefixes (for debugging one rule). */
  only?: string[];
  /** How long one rule may take before it fails, in milliseconds. Default 30000. */
  ruleTimeoutMs?: number;
}

/** The default of {@link ConformanceOptions.ruleTimeoutMs}. */
export const defaultRuleTimeoutMs = 30_000;

const functionSchema = z.custom<(...parameters: never[]) => unknown>(
  (value) => typeof value === 'function',
  'must be a function',
);

const faultInjectorSchema = z.custom<MemoryFaultInjector>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).inject === 'function' &&
    typeof (value as Record<string, unknown>).reset === 'function',
  'must be a fault injector with inject(fault) and reset()',
);

/** Whether `prefix` selects `ruleId`: equal, or a dotted prefix of it. */
export function prefixSelects(prefix: string, ruleId: string): boolean {
  return ruleId === prefix || ruleId.startsWith(`${prefix}.`);
}

function conformanceOptionsSchema(rules: ReadonlyArray<ConformanceRule>) {
  const selectsAnyRule = (prefix: string) => rules.some((rule) => prefixSelects(prefix, rule.id));
  return z.object({
    name: z.string().trim().min(1, 'must not be empty'),
    createAdapter: functionSchema,
    createPeerAdapter: functionSchema.optional(),
    waitForConsistency: functionSchema.optional(),
    faults: faultInjectorSchema.optional(),
    skip: z
      .record(
        z.string().refine(selectsAnyRule, 'names no conformance rule (use a rule id or a dotted prefix of one)'),
        z.string('needs a reason').trim().min(1, 'needs a non-empty reason'),
      )
      .optional(),
    only: z
      .array(z.string().refine(selectsAnyRule, 'names no conformance rule (use a rule id or a dotted prefix of one)'))
      .min(1, 'needs at least one prefix when set')
      .optional(),
    ruleTimeoutMs: z.number().int().positive().optional(),
  });
}

/**
 * Validates conformance options against the rules they will run. Throws `MemoryValidationError`
 * naming the bad field, such as `skip.errors` for a skip without a reason or `createAdapter`
 * when it is not a function.
 */
export function validateConformanceOptions(
  options: unknown,
  rules: ReadonlyArray<ConformanceRule>,
): ConformanceOptions {
  parseInput(conformanceOptionsSchema(rules), options, 'conformance options');
  // The parsed copy would lose the identity of the caller's functions' `this`; keep the original.
  return options as ConformanceOptions;
}

/** The rules `only` selects, in suite order. */
export function selectRules(
  rules: ReadonlyArray<ConformanceRule>,
  options: ConformanceOptions,
): ConformanceRule[] {
  const only = options.only;
  if (only === undefined) return [...rules];
  return rules.filter((rule) => only.some((prefix) => prefixSelects(prefix, rule.id)));
}

/** The explicit skip that applies to a rule: the most specific matching entry, with its key. */
export function findExplicitSkip(
  options: ConformanceOptions,
  ruleId: string,
): { key: string; reason: string } | undefined {
  let found: { key: string; reason: string } | undefined;
  for (const [key, reason] of Object.entries(options.skip ?? {})) {
    if (reason === undefined || !prefixSelects(key, ruleId)) continue;
    if (found === undefined || key.length > found.key.length) found = { key, reason: reason.trim() };
  }
  return found;
}
