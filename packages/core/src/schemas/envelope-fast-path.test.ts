import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { copyValidReport } from './envelope-fast-path';
import { memoryUsageSchema, memoryWarningSchema } from './usage-schema';

const reportSchema = z.object({ usage: z.array(memoryUsageSchema).optional(), warnings: z.array(memoryWarningSchema).optional() });
const fullUsage = {
  provider: 'mem0',
  biller: 'mem0',
  model: 'gpt-4.1-mini',
  billingType: 'metered_api',
  attributionMode: 'billed_directly',
  inputTokens: 10,
  cachedInputTokens: 0,
  outputTokens: 5,
  embeddingTokens: 3,
  costCents: 0.25,
  latencyMs: 12.5,
  details: { region: 'eu', nested: { a: 1 } },
  raw: { anything: [1, 2] },
};
const counters = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents', 'latencyMs'];

const reports: Array<[string, Record<string, unknown>]> = [
  ['nothing', {}],
  ['empty lists', { usage: [], warnings: [] }],
  ['a full usage entry', { usage: [fullUsage] }],
  ['a provider only', { usage: [{ provider: 'p' }] }],
  ['an extra usage key', { usage: [{ provider: 'p', vendor: 1 }] }],
  ['an empty provider', { usage: [{ provider: '' }] }],
  ['no provider', { usage: [{ latencyMs: 1 }] }],
  ['an unknown billing type', { usage: [{ provider: 'p', billingType: 'free' }] }],
  ['an unknown attribution mode', { usage: [{ provider: 'p', attributionMode: 'magic' }] }],
  ['details as an array', { usage: [{ provider: 'p', details: [] }] }],
  ['details as null', { usage: [{ provider: 'p', details: null }] }],
  ['raw as null', { usage: [{ provider: 'p', raw: null }] }],
  ['a model as a number', { usage: [{ provider: 'p', model: 4 }] }],
  ...counters.map((key): [string, Record<string, unknown>] => [`${key} negative`, { usage: [{ provider: 'p', [key]: -1 }] }]),
  ...counters.map((key): [string, Record<string, unknown>] => [`${key} NaN`, { usage: [{ provider: 'p', [key]: Number.NaN }] }]),
  ...counters.map((key): [string, Record<string, unknown>] => [`${key} Infinity`, { usage: [{ provider: 'p', [key]: Number.POSITIVE_INFINITY }] }]),
  ...counters.map((key): [string, Record<string, unknown>] => [`${key} as a string`, { usage: [{ provider: 'p', [key]: '1' }] }]),
  ...counters.map((key): [string, Record<string, unknown>] => [`${key} undefined`, { usage: [{ provider: 'p', [key]: undefined }] }]),
  ['usage as an object', { usage: { provider: 'p' } }],
  ['usage with null', { usage: [null] }],
  ['every warning type', {
    warnings: [
      { type: 'unsupported', feature: 'metadataFilter', details: 'ignored' },
      { type: 'compatibility', feature: 'source' },
      { type: 'scope_violation', providerRecordId: 'r1', details: 'other company' },
      { type: 'not_found', providerRecordId: 'r2', details: 'nothing was forgotten' },
      { type: 'other', message: 'note' },
    ],
  }],
  ['a warning with extra keys', { warnings: [{ type: 'other', message: 'm', details: 'dropped' }] }],
  ['an unknown warning type', { warnings: [{ type: 'error', message: 'm' }] }],
  ['a warning without its field', { warnings: [{ type: 'unsupported' }] }],
  ['a scope violation without a record id', { warnings: [{ type: 'scope_violation', feature: 'x' }] }],
  ['not_found without details', { warnings: [{ type: 'not_found', providerRecordId: 'r2' }] }],
  ['not_found without a record id', { warnings: [{ type: 'not_found', details: 'd' }] }],
  ['other without a message', { warnings: [{ type: 'other', details: 'd' }] }],
  ['details as a number', { warnings: [{ type: 'compatibility', feature: 'f', details: 3 }] }],
  ['warnings as a string', { warnings: 'none' }],
];

describe('copyValidReport', () => {
  it.each(reports)('agrees with the usage and warning schemas on %s', (_name, input) => {
    const zod = reportSchema.safeParse(input);
    const fast = copyValidReport(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it('copies details, and passes raw through as zod does', () => {
    const input = { usage: [{ ...fullUsage }] };
    const copy = copyValidReport(input);
    expect(copy?.usage?.[0]?.details).not.toBe(fullUsage.details);
    expect(copy?.usage?.[0]?.raw).toBe(fullUsage.raw);
  });
});
