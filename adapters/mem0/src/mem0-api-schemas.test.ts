import { describe, expect, it } from 'vitest';
import {
  detailedMemorySchema,
  detailedPageSchema,
  detailedSearchSchema,
  isMem0Memory,
  isMem0Page,
  isMem0SearchAnswer,
  mem0MemorySchema,
  mem0PageSchema,
  mem0SearchSchema,
} from './mem0-api-schemas';

const memory = {
  id: '3f1c2a4e-1111-4a2b-9c3d-0123456789ab',
  memory: 'Deploys happen on Tuesdays.',
  userId: 'c1/alice',
  agentId: null,
  appId: 'c1',
  runId: undefined,
  sessionId: 'c1/run-1',
  metadata: { memplane_agent: 'a1', topic: 'deploys' },
  score: 0.82,
  createdAt: '2026-11-01T10:00:00.000000-07:00',
  updatedAt: null,
};

/** Every way mem0 could break a memory, plus harmless variations. */
const memoryVariants: Array<[string, unknown]> = [
  ['the valid memory', memory],
  ['only the required fields', { id: memory.id, memory: 'x', createdAt: memory.createdAt }],
  ['an extra key', { ...memory, categories: ['work'] }],
  ['an empty memory text', { ...memory, memory: '' }],
  ['null', null],
  ['an array', [memory]],
  ['a string', 'memory'],
  ['no id', { ...memory, id: undefined }],
  ['an empty id', { ...memory, id: '' }],
  ['a numeric id', { ...memory, id: 7 }],
  ['no memory text', { ...memory, memory: undefined }],
  ['memory text as null', { ...memory, memory: null }],
  ['no createdAt', { ...memory, createdAt: undefined }],
  ['an empty createdAt', { ...memory, createdAt: '' }],
  ['createdAt as a date', { ...memory, createdAt: new Date(0) }],
  ['userId as a number', { ...memory, userId: 1 }],
  ['agentId as an object', { ...memory, agentId: {} }],
  ['appId as a boolean', { ...memory, appId: true }],
  ['runId as a number', { ...memory, runId: 2 }],
  ['sessionId as an array', { ...memory, sessionId: ['s'] }],
  ['updatedAt as a number', { ...memory, updatedAt: 0 }],
  ['metadata as an array', { ...memory, metadata: [1] }],
  ['metadata as a string', { ...memory, metadata: '{}' }],
  ['metadata as null', { ...memory, metadata: null }],
  ['score as a string', { ...memory, score: '0.8' }],
  ['score NaN', { ...memory, score: Number.NaN }],
  ['score Infinity', { ...memory, score: Number.POSITIVE_INFINITY }],
  ['score null', { ...memory, score: null }],
];

const pageVariants: Array<[string, unknown]> = [
  ['a valid page', { count: 2, next: 'https://api.mem0.ai/v3/memories/?page=2', previous: null, results: [memory, memory] }],
  ['an empty page', { count: 0, next: null, results: [] }],
  ['a page without next', { count: 1, results: [memory] }],
  ['a negative count', { count: -1, next: null, results: [] }],
  ['a fractional count', { count: 1.5, next: null, results: [] }],
  ['an unsafe count', { count: 2 ** 60, next: null, results: [] }],
  ['a count as a string', { count: '1', next: null, results: [] }],
  ['next as a number', { count: 1, next: 2, results: [memory] }],
  ['no results', { count: 0, next: null }],
  ['results as an object', { count: 0, next: null, results: {} }],
  ['one broken memory among good ones', { count: 3, next: null, results: [memory, { ...memory, id: '' }, memory] }],
  ['null', null],
  ['an array', [memory]],
];

const searchVariants: Array<[string, unknown]> = [
  ['a valid answer', { results: [memory] }],
  ['an empty answer', { results: [] }],
  ['an extra key', { results: [memory], relations: [] }],
  ['no results', {}],
  ['results as null', { results: null }],
  ['a broken memory', { results: [{ ...memory, memory: 3 }] }],
  ['a bare array', [memory]],
];

describe('the hand-written mem0 response checks', () => {
  it.each(memoryVariants)('agree with the zod memory schema on %s', (_name, value) => {
    expect(isMem0Memory(value)).toBe(detailedMemorySchema.safeParse(value).success);
    expect(mem0MemorySchema.safeParse(value).success).toBe(detailedMemorySchema.safeParse(value).success);
  });

  it.each(pageVariants)('agree with the zod page schema on %s', (_name, value) => {
    expect(isMem0Page(value)).toBe(detailedPageSchema.safeParse(value).success);
    expect(mem0PageSchema.safeParse(value).success).toBe(detailedPageSchema.safeParse(value).success);
  });

  it.each(searchVariants)('agree with the zod search schema on %s', (_name, value) => {
    expect(isMem0SearchAnswer(value)).toBe(detailedSearchSchema.safeParse(value).success);
    expect(mem0SearchSchema.safeParse(value).success).toBe(detailedSearchSchema.safeParse(value).success);
  });

  it('passes a valid page through unchanged', () => {
    const page = { count: 1, next: null, results: [memory] };
    expect(mem0PageSchema.parse(page)).toBe(page);
  });

  it('reports the path and message of the detailed schema for a broken page', () => {
    const result = mem0PageSchema.safeParse({ count: 3, next: null, results: [memory, { ...memory, createdAt: 5 }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['results', 1, 'createdAt']]);
  });

  it('reports the field of a broken memory in a search answer', () => {
    const result = mem0SearchSchema.safeParse({ results: [{ ...memory, score: 'high' }] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['results', 0, 'score']]);
  });
});
