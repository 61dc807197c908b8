import { parseInput, type MemoryFault, type MemoryFaultInjector, type MemoryOperationName } from '@memplane/core';
import { z } from 'zod';

/**
 * The fault switch of the in-memory adapter. It implements core's `MemoryFaultInjector`, so the
 * conformance suite can drive it, and lets adapters read which faults are in force.
 *
 * One switch may be shared by many adapters (for example an adapter and its peer): a fault
 * injected once is in force for every adapter created with this switch, until `reset()`.
 */
export interface MemoryAdapterFaults extends MemoryFaultInjector {
  /**
   * Puts a fault in force until `reset()`. Injecting a fault of a kind already in force
   * replaces it. Throws `MemoryValidationError` for a fault that is not a `MemoryFault`.
   */
  inject(fault: MemoryFault): void;
  /** Removes every fault. */
  reset(): void;
  /** Copies of the faults in force, in the order they were injected. */
  active(): MemoryFault[];
}

const memoryFaultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('rate_limited'), retryAfterSeconds: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('server_error'), status: z.number().int().min(500).max(599) }),
  z.strictObject({ kind: z.literal('timeout') }),
  z.strictObject({ kind: z.literal('malformed_body') }),
  z.strictObject({ kind: z.literal('extraction_failure') }),
]) satisfies z.ZodType<MemoryFault>;

/** Creates a fault switch to pass as `faults` to one or more in-memory adapters. */
export function createMemoryAdapterFaults(): MemoryAdapterFaults {
  let faults: MemoryFault[] = [];
  return {
    inject(fault) {
      const valid = parseInput(memoryFaultSchema, fault, 'memory adapter fault', 'fault');
      faults = [...faults.filter((existing) => existing.kind !== valid.kind), valid];
    },
    reset() {
      faults = [];
    },
    active() {
      return faults.map((fault) => ({ ...fault }));
    },
  };
}

/** The faults that act on a whole operation, as opposed to `extraction_failure`, which acts on jobs. */
export type MemoryOperationFault = Exclude<MemoryFault, { kind: 'extraction_failure' }>;

/** The operation fault in force, the most recently injected one when several are. */
export function currentOperationFault(faults: MemoryAdapterFaults | undefined): MemoryOperationFault | undefined {
  const operationFaults = (faults?.active() ?? []).filter(
    (fault): fault is MemoryOperationFault => fault.kind !== 'extraction_failure',
  );
  return operationFaults.at(-1);
}

/** Whether extraction jobs must fail now. */
export function extractionFailureInForce(faults: MemoryAdapterFaults | undefined): boolean {
  return (faults?.active() ?? []).some((fault) => fault.kind === 'extraction_failure');
}

/**
 * What the emulated provider "answers" under a `malformed_body` fault: for every operation a
 * body of the wrong shape, so `defineMemoryAdapter` refuses it with `MemoryInvalidResponseError`.
 */
export const malformedBodies: Readonly<Record<MemoryOperationName, unknown>> = {
  capture: { records: 'not-an-array' },
  upsertRecords: { records: 'not-an-array' },
  query: { snippets: 'not-an-array' },
  list: { items: 'not-an-array' },
  get: { handle: 'not-a-handle', text: 42 },
  forget: { usage: 'not-an-array' },
  correct: { record: 'not-a-handle' },
  profile: { summary: 42 },
  getExtractionJob: { job: 'not-a-job' },
  listExtractionJobs: { items: 'not-an-array' },
  retryExtractionJob: { job: 'not-a-job' },
  explain: { steps: 'not-an-array' },
};
