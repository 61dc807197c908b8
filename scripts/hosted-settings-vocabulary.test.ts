import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAgentCoreSettings } from '../adapters/agentcore/src/agentcore-settings';
import { resolveMem0Settings } from '../adapters/mem0/src/mem0-settings';
import { resolveSupermemorySettings } from '../adapters/supermemory/src/supermemory-settings';

// The hosted adapters' one settings vocabulary: these six keys must mean the same on mem0 and
// Supermemory. The adapters validate them with their own schemas, so this test holds the two
// to each other: for any value of any of the keys, both accept it and resolve it alike, or both
// refuse it naming the same setting.
const sharedKeys = ['apiKey', 'baseURL', 'headers', 'fetch', 'timeoutMs', 'retry'] as const;
type SharedKey = (typeof sharedKeys)[number];
type Outcome = { accepted: Record<string, unknown> } | { refused: { code: string; paths: string[] } };

const noEnvironment = {};
const aFetch: typeof globalThis.fetch = async () => new Response('{}');

function outcomeOf(resolve: () => Record<string, unknown>, given: Partial<Record<SharedKey, unknown>>): Outcome {
  try {
    const resolved = resolve();
    const shared: Record<string, unknown> = {};
    for (const key of sharedKeys) {
      // The default base URL is each provider's own; the meaning of a given one is what must match.
      if (key === 'baseURL' && given.baseURL === undefined) continue;
      shared[key] = key === 'fetch' ? (given.fetch === undefined ? typeof resolved.fetch : resolved.fetch) : resolved[key];
    }
    return { accepted: shared };
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return { refused: { code: error.code, paths: error.issues.map((issue) => issue.path).sort() } };
    if (MemoryConfigurationError.isInstance(error)) return { refused: { code: error.code, paths: [] } };
    throw error;
  }
}

const valueOf: Record<SharedKey, fc.Arbitrary<unknown>> = {
  apiKey: fc.oneof(fc.constantFrom('key-1', '  padded-key  ', '', '   '), fc.string(), fc.anything()),
  baseURL: fc.oneof(
    fc.constantFrom('https://proxy.example.com/', 'http://127.0.0.1:8080', 'https://api.example.com/v1//', 'ftp://example.com', 'not a url', ''),
    fc.webUrl(),
    fc.anything(),
  ),
  headers: fc.oneof(
    fc.constantFrom({}, { 'x-trace': 'abc' }, { Authorization: 'Token x' }, { authorization: 'x' }, { 'bad name': 'x' }, { 'x-a': 'line\nbreak' }, { 'x-n': 1 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())),
    fc.anything(),
  ),
  fetch: fc.oneof(fc.constant(aFetch), fc.anything()),
  timeoutMs: fc.oneof(fc.constantFrom(1, 30_000, 600_000, 600_001, 0, -1, 1.5), fc.integer(), fc.double(), fc.anything()),
  retry: fc.oneof(
    fc.constantFrom({}, { maxRetries: 3 }, { maxRetries: 11 }, { backoffFactor: 0.5 }, { initialDelayMs: 1.5 }, { jitter: true }),
    fc.record(
      { maxRetries: fc.integer({ min: -1, max: 12 }), initialDelayMs: fc.integer({ min: -1, max: 10_000 }), backoffFactor: fc.double({ min: 0, max: 4, noNaN: true }) },
      { requiredKeys: [] },
    ),
    fc.anything(),
  ),
};

const sharedSettings = fc.record(valueOf, { requiredKeys: [] });

describe('the hosted adapters share one settings vocabulary', () => {
  it('mem0 and Supermemory accept and resolve apiKey, baseURL, headers, fetch, timeoutMs and retry alike, or refuse them naming the same setting', () => {
    fc.assert(
      fc.property(sharedSettings, (given) => {
        const mem0 = outcomeOf(() => ({ ...resolveMem0Settings(given as never, noEnvironment) }), given);
        const supermemory = outcomeOf(() => ({ ...resolveSupermemorySettings(given as never, noEnvironment) }), given);
        expect(supermemory).toEqual(mem0);
      }),
      { numRuns: 400 },
    );
  });

  it('the same values resolve to the same meaning: trimmed key, base URL without trailing slash, headers, fetch, timeout and retry as given', () => {
    const given = {
      apiKey: '  key-1 ',
      baseURL: 'https://proxy.example.com/memory/',
      headers: { 'x-trace': 'abc' },
      fetch: aFetch,
      timeoutMs: 1234,
      retry: { maxRetries: 4, maxRetryAfterMs: 0 },
    };
    for (const resolved of [resolveMem0Settings(given, noEnvironment), resolveSupermemorySettings(given, noEnvironment)]) {
      expect({ ...resolved, apiKey: resolved.apiKey }).toMatchObject({
        apiKey: 'key-1',
        baseURL: 'https://proxy.example.com/memory',
        headers: { 'x-trace': 'abc' },
        fetch: aFetch,
        timeoutMs: 1234,
        retry: { maxRetries: 4, maxRetryAfterMs: 0 },
      });
    }
  });

  it("has no second word for a setting: mem0's host and the AWS words are refused by mem0 and Supermemory", () => {
    for (const key of ['host', 'endpoint', 'credentials', 'timeout', 'maxRetries']) {
      for (const resolve of [resolveMem0Settings, resolveSupermemorySettings]) {
        expect(() => resolve({ apiKey: 'key-1', [key]: 'https://api.example.com' } as never, noEnvironment)).toThrow(
          expect.objectContaining({ code: 'MEMORY_VALIDATION', field: `settings.${key}` }),
        );
      }
    }
  });

  it('AgentCore keeps timeoutMs and retry in the same meaning, and the AWS words endpoint, credentials and client in place of baseURL, apiKey, headers and fetch', () => {
    const base = { memoryId: 'platform_memory-AbCdEf0123', region: 'eu-west-1' };
    fc.assert(
      fc.property(fc.record({ timeoutMs: valueOf.timeoutMs, retry: valueOf.retry }, { requiredKeys: [] }), (given) => {
        const mem0 = outcomeOf(() => ({ ...resolveMem0Settings({ apiKey: 'key-1', ...given } as never, noEnvironment) }), {});
        const agentCore = outcomeOf(() => ({ ...resolveAgentCoreSettings({ ...base, ...given } as never, noEnvironment) }), {});
        const pick = (outcome: Outcome): unknown =>
          'accepted' in outcome ? { timeoutMs: outcome.accepted.timeoutMs, retry: outcome.accepted.retry } : outcome;
        expect(pick(agentCore)).toEqual(pick(mem0));
      }),
      { numRuns: 200 },
    );
    for (const key of ['apiKey', 'baseURL', 'headers', 'fetch']) {
      expect(() => resolveAgentCoreSettings({ ...base, [key]: 'x' } as never, noEnvironment)).toThrow(
        expect.objectContaining({ code: 'MEMORY_VALIDATION', field: `settings.${key}` }),
      );
    }
    expect(resolveAgentCoreSettings({ ...base, endpoint: 'https://vpce.example.com' }, noEnvironment)).toMatchObject({ endpoint: 'https://vpce.example.com' });
  });
});
