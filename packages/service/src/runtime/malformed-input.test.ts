import { MemoryError } from '@memplane/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools } from '../tools/memory-tools';

const runtimeMethods = [
  'capture',
  'upsertRecords',
  'query',
  'list',
  'get',
  'forget',
  'correct',
  'profile',
  'listProviderExtractionJobs',
  'retryExtractionJob',
  'refreshExtractionJobs',
  'listExtractionJobs',
] as const;

const hostile: unknown[] = [null, 42, 'text', [], true, { scope: null }, { scope: { companyId: 7 } }, { handle: null }, { handles: [null] }, { records: [{ x: 1 }] }, { query: null }];

/** Settles a call that may throw synchronously or reject, and returns what it threw. */
async function failureOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('malformed input to the runtime and the tools', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
  });
  afterAll(async () => cleanUp());

  it.each(runtimeMethods)('%s gives a typed error for null and other hostile requests', async (method) => {
    const runtime = service.runtime(as(actors.planner)) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    for (const request of hostile) {
      // Some hostile values are valid for some methods (an empty list request); only failures are checked.
      const error = await failureOf(() => runtime[method]!(request));
      if (error !== undefined) expect(MemoryError.isInstance(error), `${method}(${JSON.stringify(request)}) threw ${String(error)}`).toBe(true);
    }
  });

  it('refuses a null or malformed call context with a typed error', async () => {
    for (const context of [null, undefined, 42, {}, { actor: null }, { actor: { kind: 'agent' } }]) {
      expect(MemoryError.isInstance(await failureOf(() => service.runtime(context as never)))).toBe(true);
    }
  });

  it('gives every tool a typed answer for null input and a typed error for a null context', async () => {
    for (const tool of createMemoryTools(service)) {
      for (const input of [null, undefined, 42, 'x', [], { recordIds: null }, { recordId: 'no-colon' }, { query: '' }]) {
        const result = await tool.execute(input, as(actors.planner));
        if (result.isError) expect(result.error.code).toMatch(/^MEMORY_/);
      }
      for (const context of [null, undefined, 42, {}, { actor: null }]) {
        const error = await failureOf(() => tool.execute({ query: 'q', text: 't', recordId: 'memory:m', recordIds: ['memory:m'] }, context as never));
        expect(MemoryError.isInstance(error), `${tool.name} with context ${JSON.stringify(context)} threw ${String(error)}`).toBe(true);
      }
    }
  });

  it('never lets an arbitrary request escape the error hierarchy', async () => {
    const runtime = service.runtime(as(actors.planner)) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...runtimeMethods), fc.anything(), async (method, request) => {
        const error = await failureOf(() => runtime[method]!(request));
        return error === undefined || MemoryError.isInstance(error);
      }),
      { numRuns: 200 },
    );
  });
});
