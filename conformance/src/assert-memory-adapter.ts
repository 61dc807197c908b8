import { MemoryConfigurationError, type MemoryAdapter } from '@memplane/core';
import { describeError, preview } from './assertions';

const requiredOperations = ['capture', 'upsertRecords', 'query', 'list', 'get', 'forget'] as const;

/** What is missing from `value` for it to be a `MemoryAdapter`, or an empty list when nothing is. */
export function missingAdapterMembers(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['everything (it is not an object)'];
  const candidate = value as Record<string, unknown>;
  const missing: string[] = [];
  if (candidate.specificationVersion !== 'v1') missing.push('specificationVersion "v1"');
  if (typeof candidate.key !== 'string' || candidate.key === '') missing.push('a non-empty key');
  if (typeof candidate.capabilities !== 'object' || candidate.capabilities === null) missing.push('a capabilities object');
  for (const operation of requiredOperations) {
    if (typeof candidate[operation] !== 'function') missing.push(`${operation}()`);
  }
  return missing;
}

/**
 * The error a run stops with when `createAdapter()` returned something that is not a
 * `MemoryAdapter`: one clear configuration error instead of a failure per rule.
 */
export class NotAMemoryAdapterError extends MemoryConfigurationError {
  constructor(value: unknown, missing: string[]) {
    super({
      message: `createAdapter() returned ${preview(value, 120)}, which is not a MemoryAdapter: it lacks ${missing.join(', ')}. Return the adapter your factory builds (for example with defineMemoryAdapter), or a promise of it.`,
    });
  }

  /** Whether `error` is this error (by class; the runner throws it itself). */
  static is(error: unknown): error is NotAMemoryAdapterError {
    return error instanceof NotAMemoryAdapterError;
  }
}

/** Throws `NotAMemoryAdapterError` unless `value` has the members of a `MemoryAdapter`. */
export function assertMemoryAdapter(value: unknown): asserts value is MemoryAdapter {
  const missing = missingAdapterMembers(value);
  if (missing.length > 0) throw new NotAMemoryAdapterError(value, missing);
}

/**
 * The error a run stops with when `createAdapter()` throws before the first rule could run: the
 * suite cannot create the adapter under test, so every rule would fail the same way.
 */
export class AdapterFactoryError extends MemoryConfigurationError {
  constructor(cause: unknown) {
    super({ message: `createAdapter() threw, so the suite has no adapter to test: ${describeError(cause)}`, cause });
  }

  /** Whether `error` is this error (by class; the runner throws it itself). */
  static is(error: unknown): error is AdapterFactoryError {
    return error instanceof AdapterFactoryError;
  }
}
