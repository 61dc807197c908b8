import {
  MemoryApiCallError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryRateLimitedError,
  MemoryTimeoutError,
  MemoryValidationError,
  type MemoryAdapter,
  type MemoryOperationName,
} from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter';
import { createMemoryAdapterFaults } from './memory-faults';
import { createMemoryStore } from './memory-store';
import { acme, bindingKey, createTestAdapter, listAll, rejectionOf, write } from './memory-test-support';

const handle = { providerKey: 'memory', providerRecordId: 'mem_000001' };
const source = { kind: 'manual_note' as const, companyId: 'acme' };

/** One call of every operation, so a fault can be checked against each. */
const calls: Record<MemoryOperationName, (adapter: MemoryAdapter) => Promise<unknown>> = {
  capture: (adapter) => adapter.capture({ bindingKey, scope: acme, source, payload: { text: 'Captured.' } }),
  upsertRecords: (adapter) => adapter.upsertRecords({ bindingKey, scope: acme, records: [{ text: 'Written.' }] }),
  query: (adapter) => adapter.query({ bindingKey, scope: acme, query: 'seeded' }),
  list: (adapter) => adapter.list({ bindingKey, scope: acme }),
  get: (adapter) => adapter.get(handle, acme),
  forget: (adapter) => adapter.forget([handle], acme),
  correct: (adapter) => adapter.correct(handle, { text: 'Corrected.' }, acme),
  profile: (adapter) => adapter.profile(acme),
  getExtractionJob: (adapter) => adapter.getExtractionJob('job_000001', acme),
  listExtractionJobs: (adapter) => adapter.listExtractionJobs(acme),
  retryExtractionJob: (adapter) => adapter.retryExtractionJob('job_000001', acme),
  explain: (adapter) => adapter.explain({ snippets: [] }, acme),
};
const operations = Object.keys(calls) as MemoryOperationName[];

/** An adapter with one seeded record and one seeded job, and its fault switch. */
async function seededAdapter(timeoutMs?: number) {
  const faults = createMemoryAdapterFaults();
  const store = createMemoryStore();
  const adapter = createTestAdapter({ store, faults, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  await write(adapter, acme, 'A seeded record.');
  await calls.capture(adapter);
  return { adapter, faults, store };
}

describe('faults', () => {
  it.each(operations)('rate_limited makes %s throw a retryable MemoryRateLimitedError with retryAfterMs', async (operation) => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'rate_limited', retryAfterSeconds: 7 });
    const error = await rejectionOf(calls[operation](adapter));
    expect(MemoryRateLimitedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_RATE_LIMITED', statusCode: 429, isRetryable: true, retryAfterMs: 7000 });
    expect((error as MemoryApiCallError).url).toBe(`memory://${operation}`);
  });

  it.each([500, 503])('server_error %i throws a retryable MemoryApiCallError with that status', async (status) => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'server_error', status });
    const error = await rejectionOf(calls.query(adapter));
    expect(MemoryApiCallError.isInstance(error)).toBe(true);
    expect(MemoryRateLimitedError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: status, isRetryable: true, retryAfterMs: undefined });
  });

  it.each(operations)('timeout makes %s throw a retryable MemoryTimeoutError after timeoutMs', async (operation) => {
    const { adapter, faults } = await seededAdapter(20);
    faults.inject({ kind: 'timeout' });
    const error = await rejectionOf(calls[operation](adapter));
    expect(MemoryTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_TIMEOUT', timeoutMs: 20, isRetryable: true });
    expect((error as Error).message).toBe(`memory ${operation} did not finish within 20 ms.`);
  });

  it.each(operations)('malformed_body makes defineMemoryAdapter refuse the %s result', async (operation) => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'malformed_body' });
    const error = await rejectionOf(calls[operation](adapter));
    expect(MemoryInvalidResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_INVALID_RESPONSE', isRetryable: false });
  });

  it('checks faults before any work, so a failed write writes nothing', async () => {
    const { adapter, faults, store } = await seededAdapter();
    for (const fault of [
      { kind: 'rate_limited', retryAfterSeconds: 1 },
      { kind: 'server_error', status: 502 },
      { kind: 'malformed_body' },
    ] as const) {
      faults.inject(fault);
      await rejectionOf(calls.upsertRecords(adapter));
      await rejectionOf(calls.forget(adapter));
      await rejectionOf(calls.correct(adapter));
      faults.reset();
    }
    expect(await listAll(adapter, acme)).toEqual(['A seeded record.']);
    expect(store.inspectRecord('mem_000001')).toMatchObject({ state: 'live', version: 1 });
    expect(store.inspectRecord('mem_000002')).toBeUndefined();
  });

  it('does not advance a job on a failed poll', async () => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'server_error', status: 500 });
    await rejectionOf(calls.getExtractionJob(adapter));
    faults.reset();
    expect((await adapter.getExtractionJob('job_000001', acme)).job?.status).toBe('running');
  });

  it('leaves operations alone under extraction_failure', async () => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'extraction_failure' });
    await expect(calls.query(adapter)).resolves.toMatchObject({ snippets: [expect.objectContaining({ text: 'A seeded record.' })] });
  });

  it('stay in force until reset, and apply the latest operation fault when several are in force', async () => {
    const { adapter, faults } = await seededAdapter();
    faults.inject({ kind: 'server_error', status: 500 });
    faults.inject({ kind: 'rate_limited', retryAfterSeconds: 2 });
    faults.inject({ kind: 'extraction_failure' });
    expect(faults.active().map((fault) => fault.kind)).toEqual(['server_error', 'rate_limited', 'extraction_failure']);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(MemoryRateLimitedError.isInstance(await rejectionOf(calls.list(adapter)))).toBe(true);
    }
    faults.inject({ kind: 'server_error', status: 503 });
    expect(await rejectionOf(calls.list(adapter))).toMatchObject({ statusCode: 503 });
    faults.reset();
    expect(faults.active()).toEqual([]);
    await expect(calls.list(adapter)).resolves.toMatchObject({ items: [expect.anything()] });
  });

  it('are shared by every adapter given the same switch, and only by them', async () => {
    const faults = createMemoryAdapterFaults();
    const store = createMemoryStore();
    const first = createMemoryAdapter({ store, faults });
    const peer = createMemoryAdapter({ store, faults });
    const unfaulted = createMemoryAdapter({ store });
    faults.inject({ kind: 'server_error', status: 500 });
    for (const adapter of [first, peer]) expect(MemoryError.isInstance(await rejectionOf(calls.list(adapter)))).toBe(true);
    await expect(calls.list(unfaulted)).resolves.toMatchObject({ items: [] });
  });

  it('refuses an invalid fault naming the field', () => {
    const faults = createMemoryAdapterFaults();
    const invalid = [{ kind: 'meteor_strike' }, { kind: 'server_error', status: 404 }, { kind: 'rate_limited' }];
    for (const fault of invalid) {
      let error: unknown;
      try {
        faults.inject(fault as never);
      } catch (thrown) {
        error = thrown;
      }
      expect(MemoryValidationError.isInstance(error)).toBe(true);
      expect((error as MemoryValidationError).field).toMatch(/^fault\.(kind|status|retryAfterSeconds)$/);
    }
    expect(faults.active()).toEqual([]);
  });

  it('hands out copies of the faults in force', () => {
    const faults = createMemoryAdapterFaults();
    faults.inject({ kind: 'rate_limited', retryAfterSeconds: 1 });
    const [fault] = faults.active();
    if (fault?.kind === 'rate_limited') fault.retryAfterSeconds = 99;
    expect(faults.active()).toEqual([{ kind: 'rate_limited', retryAfterSeconds: 1 }]);
  });
});
