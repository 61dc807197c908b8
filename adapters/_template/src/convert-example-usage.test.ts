import { describe, expect, it } from 'vitest';
import recordResponse from './__fixtures__/record-response.json';
import { convertExampleUsage } from './convert-example-usage';

describe('convertExampleUsage', () => {
  it('reports no counter and no raw payload when the API sent no usage', () => {
    expect(convertExampleUsage(undefined, 12)).toEqual({
      provider: 'example',
      billingType: 'metered_api',
      latencyMs: 12,
    });
  });

  it('maps the reported counters and keeps the payload in raw', () => {
    expect(convertExampleUsage(recordResponse.usage, 12)).toEqual({
      provider: 'example',
      billingType: 'metered_api',
      latencyMs: 12,
      embeddingTokens: 4,
      model: 'example-embed-1',
      details: { serverLatencyMs: 3 },
      raw: recordResponse.usage,
    });
  });

  it('leaves unreported counters undefined', () => {
    const usage = convertExampleUsage({ latency_ms: 5 }, 1);
    expect(usage.embeddingTokens).toBeUndefined();
    expect(usage.model).toBeUndefined();
    expect(usage.raw).toEqual({ latency_ms: 5 });
  });
});
