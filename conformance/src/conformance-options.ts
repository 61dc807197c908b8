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
   * it they fail.
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
   * of the operations the manifest declares remote (`capabilities.remoteOperations`; all, when it
   * is absent) and by the extraction failure and retry rules: without it they fail.
   */
  faults?: MemoryFaultInjector;
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
  // Strict: an option this suite does not know (such as a `skip` list) is refused, not ignored.
  return z.strictObject({
    name: z.string().trim().min(1, 'must not be empty'),
    createAdapter: functionSchema,
    createPeerAdapter: functionSchema.optional(),
    waitForConsistency: functionSchema.optional(),
    faults: faultInjectorSchema.optional(),
    only: z
      .array(z.string().refine(selectsAnyRule, 'names no conformance rule (use a rule id or a dotted prefix of one)'))
      .min(1, 'needs at least one prefix when set')
      .optional(),
    ruleTimeoutMs: z.number().int().positive().optional(),
  });
}

/**
 * Validates conformance options against the rules they will run. Throws `MemoryValidationError`
 * naming the bad field, such as `createAdapter` when it is not a function.
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
