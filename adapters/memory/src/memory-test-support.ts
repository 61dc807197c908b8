/**
 * Shared fixtures of this package's tests. Not exported from the package.
 */
import type { MemoryAdapter, MemoryRecordHandle, MemoryRecordInput, MemoryScope } from '@memplane/core';
import { createMemoryAdapter } from './memory-adapter';
import type { MemoryAdapterSettings } from './memory-settings';

/** The binding key every test request uses. */
export const bindingKey = 'default';

/** The scope most tests write and read in. */
export const acme: MemoryScope = { companyId: 'acme' };

/** A settable clock, so timestamps and cursor ages are deterministic. */
export interface TestClock {
  now: () => Date;
  advance(milliseconds: number): void;
}

/** Creates a clock that stands still until advanced. */
export function createTestClock(start = '2025-01-01T00:00:00.000Z'): TestClock {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    advance(milliseconds) {
      current += milliseconds;
    },
  };
}

/** An adapter with a fixed clock and cursor secret, plus any other settings. */
export function createTestAdapter(settings: MemoryAdapterSettings = {}): MemoryAdapter {
  return createMemoryAdapter({ now: createTestClock().now, cursorSecret: 'test-secret', ...settings });
}

/** Writes one record per text (or input) into `scope` and returns their handles in order. */
export async function write(
  adapter: MemoryAdapter,
  scope: MemoryScope,
  ...records: Array<string | MemoryRecordInput>
): Promise<MemoryRecordHandle[]> {
  const inputs = records.map((record) => (typeof record === 'string' ? { text: record } : record));
  const result = await adapter.upsertRecords({ bindingKey, scope, records: inputs });
  return result.records ?? [];
}

/** Every record of the scope, walking all pages. */
export async function listAll(adapter: MemoryAdapter, scope: MemoryScope, limit = 200): Promise<string[]> {
  const texts: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await adapter.list({ bindingKey, scope, limit, ...(cursor === undefined ? {} : { cursor }) });
    texts.push(...page.items.map((item) => item.text));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return texts;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}
