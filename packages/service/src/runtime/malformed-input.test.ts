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

  it('gives the hooks and the explorer a typed error for null and other hostile input', async () => {
    const system = { actor: actors.heartbeat, companyId: 'acme' } as const;
    const hooks = service.hooks as unknown as Record<string, (context: unknown, input: unknown) => Promise<unknown>>;
    for (const method of ['preRunHydrate', 'postRunCapture', 'issueCommentCapture', 'issueDocumentCapture', 'manualCapture']) {
      for (const [context, input] of [[system, null], [null, { agentId: 'planner', query: 'q' }], [system, 42], [undefined, undefined]] as const) {
        const error = await failureOf(() => hooks[method]!(context, input));
        expect(MemoryError.isInstance(error), `${method} threw ${String(error)}`).toBe(true);
      }
    }
    for (const [kind, context, input] of [[null, system, {}], ['manual_capture', null, {}], ['manual_capture', system, null]] as const) {
      expect(MemoryError.isInstance(await failureOf(() => service.hooks.enqueue(kind as never, context as never, input as never)))).toBe(true);
    }
    const explorer = service.explorer(as(actors.acmeAdmin)) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    for (const method of ['listOperations', 'getOperation', 'countOperations', 'listHookDeliveries', 'listExtractionJobs', 'metrics']) {
      for (const request of [null, 42, 'x', { cursor: 7 }, { limit: -1 }]) {
        const error = await failureOf(() => explorer[method]!(request));
        if (error !== undefined) expect(MemoryError.isInstance(error), `${method}(${JSON.stringify(request)}) threw ${String(error)}`).toBe(true);
      }
      expect(await failureOf(() => explorer[method]!(null)), `${method}(null) was accepted`).toBeDefined();
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
