import { describe, expect, it } from 'vitest';
import {
  detailedMemoryListResponseSchema,
  detailedSearchResponseSchema,
  isMemoryEntry,
  isMemoryListResponse,
  isSearchResponse,
  memoryEntrySchema,
  memoryListResponseSchema,
  searchResponseSchema,
} from './supermemory-api-schemas';

const entry = {
  id: 'Xfn5S32fAoptpow1Vxy1VQ',
  memory: 'Deploy note 0: the deploy window is Tuesday at 14:00 UTC.',
  metadata: { mp_companyId: 'bench-company', mp_metadata: '{"kind":"fact"}', mpf_index: 0 },
  version: 1,
  isLatest: true,
  isForgotten: false,
  isStatic: false,
  createdAt: '2026-01-01T00:00:02.000Z',
  updatedAt: '2026-01-01T00:00:02.000Z',
};
const pagination = { currentPage: 1, totalPages: 2, totalItems: 60 };
const hit = { id: 'hit-1', memory: 'Deploys on Tuesday.', chunk: null, similarity: 0.81, metadata: { mp_companyId: 'c1' }, updatedAt: '2026-01-01T00:00:00.000Z' };

/** Every way Supermemory could break an entry, plus harmless variations. */
const entryVariants: Array<[string, unknown]> = [
  ['the valid entry', entry],
  ['only the required fields', { id: 'x', memory: '', createdAt: 't', metadata: null }],
  ['no metadata key', { id: 'x', memory: '', createdAt: 't' }],
  ['an explicitly undefined metadata', { id: 'x', memory: '', createdAt: 't', metadata: undefined }],
  ['nulls for every nullish field', { ...entry, metadata: null, version: null, isLatest: null, isForgotten: null, updatedAt: null }],
  ['null', null],
  ['an array', [entry]],
  ['an empty id', { ...entry, id: '' }],
  ['a numeric id', { ...entry, id: 3 }],
  ['no memory', { ...entry, memory: undefined }],
  ['metadata as an array', { ...entry, metadata: ['a'] }],
  ['metadata as a string', { ...entry, metadata: 'a' }],
  ['version as a string', { ...entry, version: '1' }],
  ['version Infinity', { ...entry, version: Number.POSITIVE_INFINITY }],
  ['isLatest as a string', { ...entry, isLatest: 'true' }],
  ['isForgotten as a number', { ...entry, isForgotten: 0 }],
  ['an empty createdAt', { ...entry, createdAt: '' }],
  ['no createdAt', { ...entry, createdAt: undefined }],
  ['updatedAt as a number', { ...entry, updatedAt: 5 }],
  ['source document ids', { ...entry, documentIds: ['d1', 'd2'] }],
  ['null document ids', { ...entry, documentIds: null }],
  ['a numeric document id', { ...entry, documentIds: [1] }],
  ['document ids as a string', { ...entry, documentIds: 'd1' }],
];

const listVariants: Array<[string, unknown]> = [
  ['a valid list', { memoryEntries: [entry, entry], pagination }],
  ['an empty list', { memoryEntries: [], pagination }],
  ['no pagination', { memoryEntries: [] }],
  ['a pagination field as a string', { memoryEntries: [], pagination: { ...pagination, totalItems: '60' } }],
  ['a NaN page', { memoryEntries: [], pagination: { ...pagination, currentPage: Number.NaN } }],
  ['entries as an object', { memoryEntries: {}, pagination }],
  ['one broken entry among good ones', { memoryEntries: [entry, { ...entry, memory: 1 }], pagination }],
  ['null', null],
];

const searchVariants: Array<[string, unknown]> = [
  ['a valid answer', { results: [hit], timing: 12, total: 1 }],
  ['an answer without timing or total', { results: [] }],
  ['null timing', { results: [hit], timing: null, total: null }],
  ['timing as a string', { results: [hit], timing: '12' }],
  ['total Infinity', { results: [], total: Number.POSITIVE_INFINITY }],
  ['no results', { timing: 1 }],
  ['a hit without similarity', { results: [{ ...hit, similarity: undefined }] }],
  ['a hit with similarity NaN', { results: [{ ...hit, similarity: Number.NaN }] }],
  ['a hit with an empty id', { results: [{ ...hit, id: '' }] }],
  ['a hit with a numeric memory', { results: [{ ...hit, memory: 1 }] }],
  ['a hit with a numeric chunk', { results: [{ ...hit, chunk: 1 }] }],
  ['a hit without a metadata key', { results: [{ id: 'hit-2', similarity: 0.5 }] }],
  ['a hit with array metadata', { results: [{ ...hit, metadata: [] }] }],
  ['a hit with a numeric updatedAt', { results: [{ ...hit, updatedAt: 1 }] }],
  ['a hit as null', { results: [null] }],
  ['a hit with its documents', { results: [{ ...hit, documents: [{ id: 'd1', metadata: { mp_companyId: 'c1' } }, { id: 'd2' }] }] }],
  ['a hit with a document without id', { results: [{ ...hit, documents: [{ metadata: {} }] }] }],
  ['a hit with documents as an object', { results: [{ ...hit, documents: {} }] }],
  ['a hit with a document with array metadata', { results: [{ ...hit, documents: [{ id: 'd1', metadata: [] }] }] }],
];

describe('the hand-written Supermemory response checks', () => {
  it.each(entryVariants)('agree with the zod entry schema on %s', (_name, value) => {
    expect(isMemoryEntry(value)).toBe(memoryEntrySchema.safeParse(value).success);
  });

  it.each(listVariants)('agree with the zod list schema on %s', (_name, value) => {
    expect(isMemoryListResponse(value)).toBe(detailedMemoryListResponseSchema.safeParse(value).success);
    expect(memoryListResponseSchema.safeParse(value).success).toBe(detailedMemoryListResponseSchema.safeParse(value).success);
  });

  it.each(searchVariants)('agree with the zod search schema on %s', (_name, value) => {
    expect(isSearchResponse(value)).toBe(detailedSearchResponseSchema.safeParse(value).success);
    expect(searchResponseSchema.safeParse(value).success).toBe(detailedSearchResponseSchema.safeParse(value).success);
  });

  it('accepts a page where one entry has no metadata key, instead of failing the page', () => {
    expect(memoryListResponseSchema.safeParse({ memoryEntries: [entry, { id: 'x', memory: 'm', createdAt: 't' }], pagination }).success).toBe(true);
  });

  it('reports the path of the detailed schema for a broken entry', () => {
    const result = memoryListResponseSchema.safeParse({ memoryEntries: [entry, { ...entry, createdAt: 1 }], pagination });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['memoryEntries', 1, 'createdAt']]);
  });
});
