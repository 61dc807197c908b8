import { describe, expect, it } from 'vitest';
import { parseServiceListRequest, parseServiceQueryRequest, serviceListRequestSchema, serviceQueryRequestSchema } from './runtime-requests';

const queries: Array<[string, unknown]> = [
  ['a bare query', { query: 'deploy window' }],
  ['a full query', { bindingKey: 'b', scope: { companyId: 'c', agentId: 'a' }, query: 'q', topK: 5, intent: 'answer', metadataFilter: { kind: 'fact' } }],
  ['a scope without a company', { scope: { agentId: 'a', runId: 'r' }, query: 'q' }],
  ['an empty scope', { scope: {}, query: 'q' }],
  ['explicit undefined envelope', { bindingKey: undefined, scope: undefined, query: 'q' }],
  ['a scope with an undefined company', { scope: { companyId: undefined, agentId: 'a' }, query: 'q' }],
  ['an empty binding key', { bindingKey: '', query: 'q' }],
  ['a scope with an unknown key', { scope: { tenant: 't' }, query: 'q' }],
  ['a scope as null', { scope: null, query: 'q' }],
  ['a scope as an array', { scope: [], query: 'q' }],
  ['a scope company with NUL', { scope: { companyId: 'a\u0000' }, query: 'q' }],
  ['an unknown key', { query: 'q', limit: 3 }],
  ['a blank query', { query: '  ' }],
  ['topK too large', { query: 'q', topK: 1000 }],
  ['null', null],
];

const lists: Array<[string, unknown]> = [
  ['nothing', {}],
  ['a full list', { bindingKey: 'b', scope: { companyId: 'c' }, cursor: 'x', limit: 20, metadataFilter: { a: [1] } }],
  ['a scope without a company', { scope: { projectId: 'p' } }],
  ['limit 0', { limit: 0 }],
  ['an empty cursor', { cursor: '' }],
  ['an unknown key', { query: 'q' }],
];

describe('service request fast paths', () => {
  it.each(queries)('parseServiceQueryRequest agrees with serviceQueryRequestSchema on %s', (_name, input) => {
    const zod = serviceQueryRequestSchema.safeParse(input);
    if (zod.success) expect(parseServiceQueryRequest(input)).toEqual(zod.data);
    else expect(() => parseServiceQueryRequest(input)).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }) as Error);
  });

  it.each(lists)('parseServiceListRequest agrees with serviceListRequestSchema on %s', (_name, input) => {
    const zod = serviceListRequestSchema.safeParse(input);
    if (zod.success) expect(parseServiceListRequest(input)).toEqual(zod.data);
    else expect(() => parseServiceListRequest(input)).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }) as Error);
  });

  it('never lets the placeholder through', () => {
    const parsed = parseServiceQueryRequest({ scope: { agentId: 'a' }, query: 'q' });
    expect(JSON.stringify(parsed)).not.toContain('placeholder');
    expect(Object.keys(parsed.scope ?? {})).toEqual(['agentId']);
  });
});
