import { createCursorCodec, MemoryConfigurationError, parseInput, type CursorCodec } from '@memplane/core';
import { z } from 'zod';
import type { MemoryAdapterFaults } from './memory-faults';
import { createMemoryStore, isMemoryStore, stateOf, type MemoryStore } from './memory-store';
import type { MemoryStoreState } from './memory-store-state';

/** Settings of {@link createMemoryAdapter}. Every setting is optional. */
export interface MemoryAdapterSettings {
  /**
   * The backing state. Adapters given the same store are peers: they see each other's
   * records and jobs and accept each other's cursors, like two processes over one backend.
   * Default: a fresh store for this adapter alone.
   */
  store?: MemoryStore;
  /**
   * A fault switch from `createMemoryAdapterFaults()`. The faults in force are checked at the
   * start of every operation. Default: none, so no fault can ever be injected.
   */
  faults?: MemoryAdapterFaults;
  /**
   * The HMAC secret of list and extraction-job cursors, handed to core's `createCursorCodec`.
   * Default: the store's own random secret, so peers accept each other's cursors. Peers that
   * set it must all set the same value.
   */
  cursorSecret?: string | Uint8Array;
  /**
   * The clock for `createdAt`, `updatedAt`, job timestamps and cursor ages. Tests pass a fixed
   * clock to get identical output from identical calls. Default: the real time.
   */
  now?: () => Date;
  /**
   * How long an operation may take, in milliseconds, before it fails with
   * `MemoryTimeoutError`. Store work is synchronous and always finishes first, so this only
   * matters under a `timeout` fault. Default 30000.
   */
  timeoutMs?: number;
  /**
   * How many `getExtractionJob` polls a queued extraction job takes to finish: every poll
   * before the last moves it to `running`, the last one extracts and moves it to
   * `succeeded`. Default 2. With 1, the first poll finishes the job.
   */
  extractionPollsToFinish?: number;
}

/**
 * The settings schema of {@link createMemoryAdapter}; unknown keys are refused so a misspelt
 * setting is not silently ignored. The provider description derives its binding config from it.
 */
export const memoryAdapterSettingsSchema = z.strictObject({
  store: z.custom<MemoryStore>(isMemoryStore, 'must be a store made by createMemoryStore()').optional(),
  faults: z
    .custom<MemoryAdapterFaults>(isFaultSwitch, 'must be a fault switch made by createMemoryAdapterFaults()')
    .optional(),
  cursorSecret: z.union([z.string().min(1, 'must not be empty'), z.instanceof(Uint8Array)]).optional(),
  now: z.custom<() => Date>((value) => typeof value === 'function', 'must be a function returning a Date').optional(),
  timeoutMs: z.number().int().positive().max(2_147_483_647).optional(),
  extractionPollsToFinish: z.number().int().min(1).max(1000).optional(),
});

function isFaultSwitch(value: unknown): value is MemoryAdapterFaults {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['inject', 'reset', 'active'].every((method) => typeof candidate[method] === 'function');
}

/** Everything the operations of one adapter work with. */
export interface MemoryAdapterContext {
  /** The store's private state. */
  state: MemoryStoreState;
  /** The fault switch, when one was given. */
  faults: MemoryAdapterFaults | undefined;
  /** The cursor codec, bound to the adapter's clock. */
  codec: CursorCodec;
  /** The current time as an ISO 8601 string. */
  now: () => string;
  /** The per-operation timeout. */
  timeoutMs: number;
  /** Polls a job takes to finish. */
  extractionPollsToFinish: number;
}

/**
 * Validates the settings and builds the context of one adapter. Throws
 * `MemoryValidationError` naming the bad setting, such as `settings.timeoutMs`.
 */
export function resolveMemoryAdapterSettings(settings: MemoryAdapterSettings = {}): MemoryAdapterContext {
  const valid = parseInput(memoryAdapterSettingsSchema, settings, 'memory adapter settings', 'settings');
  const state = stateOf(valid.store ?? createMemoryStore());
  const clock = valid.now ?? (() => new Date());
  const readClock = (): Date => {
    const value = clock();
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
      throw new MemoryConfigurationError({ message: 'The memory adapter clock (settings.now) must return a valid Date.' });
    }
    return value;
  };
  return {
    state,
    faults: valid.faults,
    codec: createCursorCodec({ secret: valid.cursorSecret ?? state.cursorSecret, now: () => readClock().getTime() }),
    now: () => readClock().toISOString(),
    timeoutMs: valid.timeoutMs ?? 30_000,
    extractionPollsToFinish: valid.extractionPollsToFinish ?? 2,
  };
}
