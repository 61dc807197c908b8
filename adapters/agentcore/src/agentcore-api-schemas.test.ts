import { describe, expect, it } from 'vitest';
import { agentCoreRecordPageSchema, agentCoreRecordSchema, detailedRecordPageSchema, isAgentCoreRecord, isAgentCoreRecordPage } from './agentcore-api-schemas';

const record = {
  memoryRecordId: 'mem-cecd752d-3353-456e-b9c5-5676a1a111cd',
  content: { text: 'The deploy window is Tuesday.' },
  memoryStrategyId: 'strategy-1',
  namespaces: ['/c/company-1/a/agent-1/'],
  createdAt: new Date('2026-11-22T03:49:30.486Z'),
  score: 0.7,
  metadata: { 'memplane.p0': { stringValue: 'j1.e30=' }, other: { numberValue: 3 } },
};

/** Every way the SDK could hand back a broken record, plus harmless variations. */
const recordVariants: Array<[string, unknown]> = [
  ['the valid record', record],
  ['only the required fields', { memoryRecordId: 'mem-1', content: { text: '' }, namespaces: [], createdAt: new Date(0) }],
  ['an extra key', { ...record, vendor: true }],
  ['null', null],
  ['an array', [record]],
  ['no id', { ...record, memoryRecordId: undefined }],
  ['an empty id', { ...record, memoryRecordId: '' }],
  ['content without text', { ...record, content: {} }],
  ['content text as a number', { ...record, content: { text: 1 } }],
  ['content as a string', { ...record, content: 'text' }],
  ['strategy as a number', { ...record, memoryStrategyId: 2 }],
  ['strategy null', { ...record, memoryStrategyId: null }],
  ['namespaces missing', { ...record, namespaces: undefined }],
  ['a numeric namespace', { ...record, namespaces: ['/c/x/', 3] }],
  ['createdAt as a string', { ...record, createdAt: '2026-11-22T03:49:30.486Z' }],
  ['an invalid date', { ...record, createdAt: new Date(Number.NaN) }],
  ['score as a string', { ...record, score: '0.7' }],
  ['score NaN', { ...record, score: Number.NaN }],
  ['score Infinity', { ...record, score: Number.POSITIVE_INFINITY }],
  ['score null', { ...record, score: null }],
  ['metadata null', { ...record, metadata: null }],
  ['metadata as an array', { ...record, metadata: [] }],
  ['metadata as a string', { ...record, metadata: 'x' }],
];

const pageVariants: Array<[string, unknown]> = [
  ['a valid page', { memoryRecordSummaries: [record, record], nextToken: 'token' }],
  ['an empty page', { memoryRecordSummaries: [] }],
  ['SDK response metadata beside the page', { $metadata: { httpStatusCode: 200 }, memoryRecordSummaries: [record] }],
  ['an empty next token', { memoryRecordSummaries: [], nextToken: '' }],
  ['a numeric next token', { memoryRecordSummaries: [], nextToken: 1 }],
  ['no records', { nextToken: 'token' }],
  ['records as an object', { memoryRecordSummaries: {} }],
  ['one broken record among good ones', { memoryRecordSummaries: [record, { ...record, createdAt: 0 }, record] }],
  ['null', null],
];

describe('the hand-written AgentCore record checks', () => {
  it.each(recordVariants)('agree with the zod record schema on %s', (_name, value) => {
    expect(isAgentCoreRecord(value)).toBe(agentCoreRecordSchema.safeParse(value).success);
  });

  it.each(pageVariants)('agree with the zod page schema on %s', (_name, value) => {
    expect(isAgentCoreRecordPage(value)).toBe(detailedRecordPageSchema.safeParse(value).success);
    expect(agentCoreRecordPageSchema.safeParse(value).success).toBe(detailedRecordPageSchema.safeParse(value).success);
  });

  it('reports the path of the detailed schema for a broken record', () => {
    const result = agentCoreRecordPageSchema.safeParse({ memoryRecordSummaries: [record, { ...record, content: { text: 5 } }] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['memoryRecordSummaries', 1, 'content', 'text']]);
  });
});
