import { describe, expect, it } from 'vitest';
import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';
import { fillUsage } from './fill-usage';
import { measureLatency } from './measure-latency';

describe('fillUsage', () => {
  it('reports one entry with only the provider and the latency when the adapter reported none', () => {
    for (const usage of [undefined, []]) {
      const filled = fillUsage('mem0', usage, 12.5);
      expect(filled).toEqual([{ provider: 'mem0', latencyMs: 12.5 }]);
      expect(Object.keys(filled[0] ?? {})).toEqual(['provider', 'latencyMs']);
    }
  });

  it('adds the measured latency to entries without one, inventing no counter', () => {
    const reported: MemoryUsage[] = [{ provider: 'mem0', model: 'gpt-4o-mini' }];
    const [entry] = fillUsage('mem0', reported, 40);
    expect(entry).toEqual({ provider: 'mem0', model: 'gpt-4o-mini', latencyMs: 40 });
    for (const counter of ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents'] as const) {
      expect(entry?.[counter]).toBeUndefined();
      expect(entry !== undefined && counter in entry).toBe(false);
    }
  });

  it('keeps counters, raw payloads and latencies the adapter reported', () => {
    const reported: MemoryUsage[] = [
      { provider: 'mem0', inputTokens: 120, raw: { usage: { prompt_tokens: 120 } }, latencyMs: 7 },
      { provider: 'mem0', biller: 'openai', embeddingTokens: 30, raw: { tokens: 30 } },
    ];
    expect(fillUsage('mem0', reported, 40)).toEqual([
      { provider: 'mem0', inputTokens: 120, raw: { usage: { prompt_tokens: 120 } }, latencyMs: 7 },
      { provider: 'mem0', biller: 'openai', embeddingTokens: 30, raw: { tokens: 30 }, latencyMs: 40 },
    ]);
  });

  it('leaves the reported entries unchanged', () => {
    const reported: MemoryUsage[] = [{ provider: 'mem0' }];
    fillUsage('mem0', reported, 40);
    expect(reported).toEqual([{ provider: 'mem0' }]);
  });
});

describe('measureLatency', () => {
  it('returns the value with a non-negative latency', async () => {
    const { value, latencyMs } = await measureLatency(async () => 'answer');
    expect(value).toBe('answer');
    expect(latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('passes a failure on', async () => {
    const failure = new Error('provider down');
    await expect(measureLatency(() => Promise.reject(failure))).rejects.toBe(failure);
  });
});
