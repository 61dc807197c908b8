import { describe, expect, it } from 'vitest';
import { memoryScopeFields } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { copyValidListRequest, copyValidQueryRequest, copyValidScope } from './request-fast-path';
import { memoryListRequestSchema, memoryQueryRequestSchema } from './request-schemas';
import { memoryScopeSchema } from './scope-schema';

const scope = { companyId: 'company-1', agentId: 'agent-1' };
const fullScope = Object.fromEntries(memoryScopeFields.map((field) => [field, `${field}-value`]));
const query = { bindingKey: 'default', scope, query: 'deploy window', topK: 10, intent: 'answer', metadataFilter: { kind: 'fact' } };
const list = { bindingKey: 'default', scope, cursor: 'c1.abc.def', limit: 50, metadataFilter: { tags: ['a', 1] } };

const scopes: Array<[string, unknown]> = [
  ['a company only', { companyId: 'c' }],
  ['every field', fullScope],
  ['explicit undefined fields', { companyId: 'c', agentId: undefined }],
  ...memoryScopeFields.map((field): [string, unknown] => [`${field} empty`, { ...fullScope, [field]: '' }]),
  ...memoryScopeFields.map((field): [string, unknown] => [`${field} as a number`, { ...fullScope, [field]: 7 }]),
  ...memoryScopeFields.map((field): [string, unknown] => [`${field} with NUL`, { ...fullScope, [field]: 'a\u0000b' }]),
  ...memoryScopeFields.map((field): [string, unknown] => [`${field} 257 characters`, { ...fullScope, [field]: 'x'.repeat(257) }]),
  ['256 characters', { companyId: 'x'.repeat(256) }],
  ['DEL character', { companyId: 'a\u007f' }],
  ['non-ASCII', { companyId: 'société/东京' }],
  ['an unknown key', { companyId: 'c', tenant: 't' }],
  ['an unknown key set to undefined', { companyId: 'c', tenant: undefined }],
  ['no company', { agentId: 'a' }],
  ['null', null],
  ['an array', ['c']],
  ['a string', 'c'],
];

const queries: Array<[string, unknown]> = [
  ['a full query', query],
  ['the required fields', { bindingKey: 'b', scope, query: 'q' }],
  ['a query of 10000 characters', { ...query, query: 'q'.repeat(10_000) }],
  ['a query of 10001 characters', { ...query, query: 'q'.repeat(10_001) }],
  ['a blank query', { ...query, query: ' \n\t ' }],
  ['an empty query', { ...query, query: '' }],
  ['a numeric query', { ...query, query: 5 }],
  ['topK 1 and 100', { ...query, topK: 100 }],
  ['topK 0', { ...query, topK: 0 }],
  ['topK 101', { ...query, topK: 101 }],
  ['topK 2.5', { ...query, topK: 2.5 }],
  ['topK NaN', { ...query, topK: Number.NaN }],
  ['topK as a string', { ...query, topK: '10' }],
  ['every intent', { ...query, intent: 'agent_preamble' }],
  ['intent browse', { ...query, intent: 'browse' }],
  ['an unknown intent', { ...query, intent: 'search' }],
  ['a metadata filter with a date', { ...query, metadataFilter: { at: new Date(0) } }],
  ['a metadata filter as an array', { ...query, metadataFilter: [] }],
  ['a metadata filter as null', { ...query, metadataFilter: null }],
  ['a bad binding key', { ...query, bindingKey: '' }],
  ['a bad scope', { ...query, scope: { companyId: 'c', extra: 1 } }],
  ['no scope', { bindingKey: 'b', query: 'q' }],
  ['an unknown key', { ...query, limit: 5 }],
  ['explicit undefined optionals', { ...query, topK: undefined, intent: undefined, metadataFilter: undefined }],
  ...scopes.map(([name, value]): [string, unknown] => [`scope: ${name}`, { ...query, scope: value }]),
];

const lists: Array<[string, unknown]> = [
  ['a full list', list],
  ['the required fields', { bindingKey: 'b', scope }],
  ['an empty cursor', { ...list, cursor: '' }],
  ['a cursor of 4096 characters', { ...list, cursor: 'c'.repeat(4096) }],
  ['a cursor of 4097 characters', { ...list, cursor: 'c'.repeat(4097) }],
  ['a numeric cursor', { ...list, cursor: 1 }],
  ['limit 200', { ...list, limit: 200 }],
  ['limit 201', { ...list, limit: 201 }],
  ['limit 0', { ...list, limit: 0 }],
  ['limit 1.5', { ...list, limit: 1.5 }],
  ['limit Infinity', { ...list, limit: Number.POSITIVE_INFINITY }],
  ['a metadata filter with a function', { ...list, metadataFilter: { run: () => 1 } }],
  ['an unknown key', { ...list, topK: 5 }],
  ['a query key', { ...list, query: 'q' }],
  ['null', null],
  ...scopes.map(([name, value]): [string, unknown] => [`scope: ${name}`, { ...list, scope: value }]),
];

describe('request fast paths', () => {
  it.each(scopes)('copyValidScope agrees with memoryScopeSchema on %s', (_name, input) => {
    const zod = memoryScopeSchema.safeParse(input);
    const fast = copyValidScope(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it.each(queries)('copyValidQueryRequest agrees with memoryQueryRequestSchema on %s', (_name, input) => {
    const zod = memoryQueryRequestSchema.safeParse(input);
    const fast = copyValidQueryRequest(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it.each(lists)('copyValidListRequest agrees with memoryListRequestSchema on %s', (_name, input) => {
    const zod = memoryListRequestSchema.safeParse(input);
    const fast = copyValidListRequest(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it('copies the request and its scope, so the caller changing them later changes nothing', () => {
    const input = { bindingKey: 'b', scope: { companyId: 'c' }, query: 'q' };
    const copy = copyValidQueryRequest(input);
    input.scope.companyId = 'other';
    expect(copy?.scope.companyId).toBe('c');
  });
});
