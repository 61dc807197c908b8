import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors/memory-error';
import { MemoryInvalidResponseError } from '../errors/memory-simple-errors';
import { MemoryValidationError } from '../errors/memory-validation-error';
import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';
import { parseInput, parseProviderResult } from '../schemas/parse-with-schema';
import { memoryQueryRequestSchema } from '../schemas/request-schemas';
import { memoryCaptureResultSchema } from '../schemas/result-schemas';
import { defineMemoryAdapter } from './define-memory-adapter';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';

/*
 * Arguments and results that fight back when read: getters and proxy traps that throw (a
 * plain error, a string, or a proxy that throws in turn), revoked proxies, conversions that
 * throw, and getters that answer differently on each read. A recipe is plain data, so
 * fast-check can print it; the hostile value is built from it for each run.
 */

const trapNames = ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'isExtensible', 'apply', 'construct'] as const;
type TrapName = (typeof trapNames)[number];
type Thrown = 'error' | 'string' | 'proxy';
type Leaf = { type: 'proxy'; traps: TrapName[]; array: boolean } | { type: 'revoked' } | { type: 'conversions' };
type Recipe =
  | { kind: 'replace'; path: Array<string | number>; leaf: Leaf; thrown: Thrown }
  | { kind: 'getter'; path: Array<string | number>; thrown: Thrown }
  | { kind: 'flip'; path: Array<string | number>; sequence: Array<'original' | 'leaf' | 'throw'>; leaf: Leaf; thrown: Thrown };

function thrownValue(kind: Thrown): unknown {
  if (kind === 'error') return new RangeError('hostile');
  if (kind === 'string') return 'hostile';
  return throwingProxy({}, [...trapNames], 'error');
}

function throwingProxy(target: object, traps: readonly TrapName[], thrown: Thrown): object {
  const handler: Record<string, () => never> = {};
  for (const trap of traps) {
    handler[trap] = () => {
      throw thrownValue(thrown);
    };
  }
  return new Proxy(target, handler);
}

function buildLeaf(leaf: Leaf, thrown: Thrown): unknown {
  if (leaf.type === 'proxy') return throwingProxy(leaf.array ? [] : {}, leaf.traps, thrown);
  if (leaf.type === 'revoked') {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }
  const fail = () => {
    throw thrownValue(thrown);
  };
  return { toString: fail, valueOf: fail, [Symbol.toPrimitive]: fail, toJSON: fail };
}

const copy = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(copy) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, copy(entry)])) : value;

function plant(template: unknown, recipe: Recipe): unknown {
  const root = copy(template);
  if (recipe.path.length === 0) return recipe.kind === 'replace' ? buildLeaf(recipe.leaf, recipe.thrown) : throwingProxy({}, [...trapNames], recipe.thrown);
  let parent = root as Record<string | number, unknown>;
  for (const step of recipe.path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const key = recipe.path.at(-1)!;
  const original = parent[key];
  if (recipe.kind === 'replace') {
    parent[key] = buildLeaf(recipe.leaf, recipe.thrown);
    return root;
  }
  let reads = 0;
  Object.defineProperty(parent, key, {
    enumerable: true,
    get() {
      const step = recipe.kind === 'getter' ? 'throw' : recipe.sequence[reads++ % recipe.sequence.length];
      if (step === 'original') return original;
      if (step === 'leaf' && recipe.kind === 'flip') return buildLeaf(recipe.leaf, recipe.thrown);
      throw thrownValue(recipe.thrown);
    },
  });
  return root;
}

function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const found = [path];
  if (typeof value === 'object' && value !== null) {
    for (const [key, entry] of Object.entries(value)) found.push(...pathsOf(entry, [...path, Array.isArray(value) ? Number(key) : key]));
  }
  return found;
}

function recipes(template: unknown, minimumDepth = 0): fc.Arbitrary<Recipe> {
  const path = fc.constantFrom(...pathsOf(template).filter((candidate) => candidate.length >= minimumDepth));
  const thrown = fc.constantFrom<Thrown>('error', 'string', 'proxy');
  const leaf: fc.Arbitrary<Leaf> = fc.oneof(
    fc.record({ type: fc.constant('proxy' as const), traps: fc.subarray<TrapName>([...trapNames], { minLength: 1 }), array: fc.boolean() }),
    fc.constant({ type: 'revoked' as const }),
    fc.constant({ type: 'conversions' as const }),
  );
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), path, leaf, thrown }),
    fc.record({ kind: fc.constant('getter' as const), path, thrown }),
    fc.record({ kind: fc.constant('flip' as const), path, sequence: fc.array(fc.constantFrom('original' as const, 'leaf' as const, 'throw' as const), { minLength: 2, maxLength: 4 }), leaf, thrown }),
  );
}

async function outcomeOf(call: () => unknown): Promise<{ failed: boolean; error?: unknown }> {
  try {
    await call();
    return { failed: false };
  } catch (error) {
    return { failed: true, error };
  }
}

const key = 'hostile';
const scope = { companyId: 'company-a', agentId: 'agent-1', issueId: 'issue-1' };
const handle = { providerKey: key, providerRecordId: 'record-1' };
const snippet = { handle, text: 'likes tea', score: 0.5, scope, source: { kind: 'manual_note', companyId: 'company-a' }, metadata: { tags: ['a'] } };
const usage = [{ provider: key, billingType: 'metered_api', inputTokens: 3, details: { model: 'x' } }];
const warnings = [{ type: 'other', message: 'note' }];
const job = { providerJobId: 'job-1', status: 'failed' };

/** An implementation that counts the calls that reach it and answers each with `results[name]`. */
function implementationAnswering(results: Record<string, unknown>) {
  let calls = 0;
  const answer = (name: string) => async () => {
    calls += 1;
    return results[name];
  };
  const implementation = {
    key,
    capabilities: { correction: true, profile: true, asyncExtraction: true, listExtractionJobs: true, retryExtractionJob: true, explain: true, metadataFilter: true },
    capture: answer('capture'),
    upsertRecords: answer('upsertRecords'),
    query: answer('query'),
    list: answer('list'),
    get: answer('get'),
    forget: answer('forget'),
    correct: answer('correct'),
    profile: answer('profile'),
    getExtractionJob: answer('getExtractionJob'),
    listExtractionJobs: answer('listExtractionJobs'),
    retryExtractionJob: answer('retryExtractionJob'),
    explain: answer('explain'),
  } as unknown as MemoryAdapterImplementation;
  return { adapter: defineMemoryAdapter(implementation), calls: () => calls };
}

const validResults: Record<string, unknown> = {
  capture: { jobs: [job], usage, warnings },
  upsertRecords: { records: [handle], usage },
  query: { snippets: [snippet, snippet], profileSummary: 'likes tea', usage, warnings },
  list: { items: [snippet], nextCursor: 'next', usage, warnings },
  get: snippet,
  forget: { forgotten: [handle], usage },
  correct: { record: handle, usage },
  profile: { summary: 'likes tea', items: [snippet], usage },
  getExtractionJob: { job, usage },
  listExtractionJobs: { items: [job], nextCursor: 'next' },
  retryExtractionJob: { job },
  explain: { steps: [{ handle, stage: 'search', score: 0.5, details: 'two hits' }], usage },
};

/** Every wrapped method, with a valid value of each argument. */
const calls: Record<string, { args: unknown[]; call: (adapter: MemoryAdapter, args: unknown[]) => Promise<unknown> }> = {
  capture: {
    args: [{ bindingKey: 'main', scope, source: { kind: 'manual_note', companyId: 'company-a', issueId: 'issue-1' }, payload: { text: 'tea', metadata: { a: [1] } }, mode: 'capture_record', metadata: { b: { c: true } } }],
    call: (adapter, [request]) => adapter.capture(request as never),
  },
  upsertRecords: { args: [{ bindingKey: 'main', scope, records: [{ text: 'tea', summary: 's', metadata: { a: 1 } }] }], call: (adapter, [request]) => adapter.upsertRecords(request as never) },
  query: { args: [{ bindingKey: 'main', scope, query: 'tea', topK: 3, intent: 'answer', metadataFilter: { a: 1 } }], call: (adapter, [request]) => adapter.query(request as never) },
  list: { args: [{ bindingKey: 'main', scope, cursor: 'c', limit: 5, metadataFilter: { a: [1] } }], call: (adapter, [request]) => adapter.list(request as never) },
  get: { args: [handle, scope], call: (adapter, [first, second]) => adapter.get(first as never, second as never) },
  forget: { args: [[handle, handle], scope], call: (adapter, [first, second]) => adapter.forget(first as never, second as never) },
  correct: { args: [handle, { text: 'coffee', metadata: { a: 1 }, reason: 'r' }, scope], call: (adapter, [first, second, third]) => adapter.correct!(first as never, second as never, third as never) },
  profile: { args: [scope], call: (adapter, [first]) => adapter.profile!(first as never) },
  getExtractionJob: { args: ['job-1', scope], call: (adapter, [first, second]) => adapter.getExtractionJob!(first as never, second as never) },
  listExtractionJobs: { args: [scope, 'cursor'], call: (adapter, [first, second]) => adapter.listExtractionJobs!(first as never, second as never) },
  retryExtractionJob: { args: ['job-1', scope], call: (adapter, [first, second]) => adapter.retryExtractionJob!(first as never, second as never) },
  explain: { args: [{ snippets: [snippet], usage, warnings }, scope], call: (adapter, [first, second]) => adapter.explain!(first as never, second as never) },
};

describe('defineMemoryAdapter with hostile values', () => {
  const argumentCases = Object.entries(calls).flatMap(([name, { args }]) => args.map((_value, index) => [`${name} argument ${index}`, name, index] as const));

  it.each(argumentCases)('%s: a hostile request is a MemoryValidationError and never reaches the implementation', async (_label, name, index) => {
    const { args, call } = calls[name]!;
    await fc.assert(
      fc.asyncProperty(recipes(args[index]), async (recipe) => {
        const { adapter, calls: reached } = implementationAnswering(validResults);
        const hostileArgs = args.map((value, position) => (position === index ? plant(value, recipe) : value));
        const outcome = await outcomeOf(() => call(adapter, hostileArgs));
        if (!outcome.failed) return;
        expect(MemoryError.isInstance(outcome.error), `${name} threw a value outside the error hierarchy`).toBe(true);
        expect(reached(), `${name} reached the implementation, then failed`).toBe(0);
      }),
      { numRuns: 80 },
    );
  });

  it.each(Object.keys(calls))('%s: a hostile result is a MemoryInvalidResponseError', async (name) => {
    const { args, call } = calls[name]!;
    // At the root a hostile result would make the implementation's own promise reject: that is the implementation's error, not a result.
    await fc.assert(
      fc.asyncProperty(recipes(validResults[name], 1), async (recipe) => {
        const { adapter } = implementationAnswering({ ...validResults, [name]: plant(validResults[name], recipe) });
        const outcome = await outcomeOf(() => call(adapter, args));
        if (!outcome.failed) return;
        expect(MemoryError.isInstance(outcome.error), `${name} threw a value outside the error hierarchy`).toBe(true);
      }),
      { numRuns: 80 },
    );
  });

  it('parseInput names the field that threw and keeps what it threw as the cause', () => {
    const thrown = new RangeError('getter');
    const request = { bindingKey: 'main', scope: { companyId: 'company-a', get agentId(): string { throw thrown; } }, query: 'tea' };
    let error: unknown;
    try {
      parseInput(memoryQueryRequestSchema, request, 'query request');
    } catch (caught) {
      error = caught;
    }
    expect(MemoryValidationError.isInstance(error)).toBe(true);
    expect((error as MemoryValidationError).field).toBe('scope.agentId');
    expect((error as MemoryValidationError).cause).toBe(thrown);
  });

  it('parseProviderResult names the field that threw and keeps what it threw as the cause', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    let error: unknown;
    try {
      parseProviderResult(memoryCaptureResultSchema, { jobs: [proxy] }, 'capture result');
    } catch (caught) {
      error = caught;
    }
    expect(MemoryInvalidResponseError.isInstance(error)).toBe(true);
    expect((error as MemoryInvalidResponseError).field).toBe('jobs.0');
    expect((error as MemoryInvalidResponseError).cause).toBeInstanceOf(TypeError);
  });

  it('a getter cannot show the check one value and the implementation another', async () => {
    let reads = 0;
    const metadata = {
      get level(): unknown {
        reads += 1;
        return reads === 1 ? 1 : () => 'not JSON';
      },
    };
    let received: unknown;
    const recording = defineMemoryAdapter({
      key,
      capabilities: {},
      upsertRecords: async (request: { records: Array<{ metadata?: unknown }> }) => {
        received = request.records[0]?.metadata;
        return { records: [handle] };
      },
    } as unknown as MemoryAdapterImplementation);
    await recording.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'tea', metadata }] });
    expect(received).toEqual({ level: 1 });
    expect(JSON.stringify(received)).toBe('{"level":1}');
  });
});
