import { describe, expect, it } from 'vitest';
import { MemoryNotFoundError } from '../errors/memory-not-found-error';
import { MemoryScopeViolationError } from '../errors/memory-scope-violation-error';
import { MemoryValidationError } from '../errors/memory-validation-error';
import { UnsupportedCapabilityError } from '../errors/unsupported-capability-error';
import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';
import type { MemoryAdapterCapabilities } from '../memory-adapter/v1/memory-adapter-v1-capabilities';
import type { MemoryRecordHandle } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { defineMemoryAdapter } from './define-memory-adapter';
import type { MemoryAdapterImplementation } from './memory-adapter-implementation';

const key = 'recording';
const scope: MemoryScope = { companyId: 'company-a', agentId: 'agent-1' };
const ownHandle: MemoryRecordHandle = { providerKey: key, providerRecordId: 'record-1' };
const foreignHandle: MemoryRecordHandle = { providerKey: 'mem0', providerRecordId: 'mem0-record-9' };
const allCapabilities: MemoryAdapterCapabilities = {
  correction: true,
  profile: true,
  asyncExtraction: true,
  listExtractionJobs: true,
  retryExtractionJob: true,
  explain: true,
};

/**
 * An implementation that records what reaches it and answers with valid, empty results,
 * so these tests see exactly which calls the wrapper lets through.
 */
function createRecordingImplementation(capabilities: MemoryAdapterCapabilities = {}) {
  const received: Array<{ operation: string; arguments: unknown[] }> = [];
  const record = (operation: string, ...values: unknown[]) => received.push({ operation, arguments: values });
  const job = { providerJobId: 'job-1', status: 'failed' as const };
  const implementation: MemoryAdapterImplementation = {
    key,
    capabilities,
    capture: async (request) => (record('capture', request), { jobs: [job] }),
    upsertRecords: async (request) => (record('upsertRecords', request), { records: request.records.map(() => ownHandle) }),
    query: async (request) => (record('query', request), { snippets: [] }),
    list: async (request) => (record('list', request), { items: [] }),
    get: async (handle, requestScope) => (record('get', handle, requestScope), null),
    forget: async (handles, requestScope) => (record('forget', handles, requestScope), {}),
    correct: async (handle, patch, requestScope) => (record('correct', handle, patch, requestScope), { record: handle }),
    profile: async (requestScope) => (record('profile', requestScope), { summary: 'likes tea' }),
    getExtractionJob: async (id, requestScope) => (record('getExtractionJob', id, requestScope), { job }),
    listExtractionJobs: async (requestScope, cursor) => (record('listExtractionJobs', requestScope, cursor), { items: [job] }),
    retryExtractionJob: async (id, requestScope) => (record('retryExtractionJob', id, requestScope), { job }),
    explain: async (result, requestScope) => (record('explain', result, requestScope), { steps: [] }),
  };
  return { implementation, received, adapter: defineMemoryAdapter(implementation) };
}

/** Runs `call` and returns the field its MemoryValidationError names. */
async function invalidField(call: () => Promise<unknown>): Promise<string> {
  const error: unknown = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MemoryValidationError);
  return (error as MemoryValidationError).field;
}

describe('defineMemoryAdapter: requests', () => {
  it('refuses invalid requests naming the field, without calling the implementation', async () => {
    const { adapter, received } = createRecordingImplementation(allCapabilities);
    const base = { bindingKey: 'binding-1', scope };
    expect(await invalidField(() => adapter.upsertRecords({ ...base, records: [{ text: '   ' }] }))).toBe('records.0.text');
    expect(await invalidField(() => adapter.upsertRecords({ ...base, records: [] }))).toBe('records');
    expect(await invalidField(() => adapter.query({ ...base, scope: { companyId: '' }, query: 'tea' }))).toBe('scope.companyId');
    expect(await invalidField(() => adapter.query({ ...base, query: 'tea', topK: 1000 }))).toBe('topK');
    expect(await invalidField(() => adapter.list({ ...base, limit: 0 }))).toBe('limit');
    expect(
      await invalidField(() =>
        adapter.capture({ ...base, source: { kind: 'manual_note', companyId: 'company-a' }, payload: { text: '' } }),
      ),
    ).toBe('payload.text');
    expect(await invalidField(() => adapter.get({ providerKey: '', providerRecordId: 'x' }, scope))).toBe('handle.providerKey');
    expect(await invalidField(() => adapter.get(ownHandle, { companyId: 'bad\u0000id' }))).toBe('scope.companyId');
    expect(await invalidField(() => adapter.forget([{ providerKey: key, providerRecordId: '' }], scope))).toBe(
      'handles.0.providerRecordId',
    );
    expect(await invalidField(() => adapter.correct(ownHandle, {}, scope))).toBe('patch.text');
    expect(await invalidField(() => adapter.getExtractionJob('', scope))).toBe('providerJobId');
    expect(await invalidField(() => adapter.listExtractionJobs(scope, ''))).toBe('cursor');
    expect(await invalidField(() => adapter.explain({ snippets: 'none' } as never, scope))).toBe('result.snippets');
    expect(received).toEqual([]);
  });

  it('names the request in the message', async () => {
    const { adapter } = createRecordingImplementation();
    await expect(adapter.query({ bindingKey: 'binding-1', scope, query: '' })).rejects.toThrow(
      'Invalid query request: query: must not be empty',
    );
  });

  it('refuses unknown request fields', async () => {
    const { adapter, received } = createRecordingImplementation();
    const request = { bindingKey: 'binding-1', scope, query: 'tea', topk: 5 };
    await expect(adapter.query(request)).rejects.toThrow(MemoryValidationError);
    await expect(adapter.query(request)).rejects.toThrow('topk');
    expect(received).toEqual([]);
  });

  it('refuses a write whose source belongs to another company', async () => {
    const { adapter, received } = createRecordingImplementation();
    const source = { kind: 'issue_comment' as const, companyId: 'company-b', issueId: 'issue-1', commentId: 'comment-1' };
    await expect(
      adapter.upsertRecords({ bindingKey: 'binding-1', scope, source, records: [{ text: 'likes tea' }] }),
    ).rejects.toBeInstanceOf(MemoryScopeViolationError);
    await expect(
      adapter.capture({ bindingKey: 'binding-1', scope, source, payload: { text: 'likes tea' } }),
    ).rejects.toThrow('source.companyId (company-b) differs from scope.companyId (company-a).');
    expect(received).toEqual([]);
  });

  it('passes a valid request on as validated', async () => {
    const { adapter, received } = createRecordingImplementation();
    const source = { kind: 'manual_note' as const, companyId: 'company-a' };
    await adapter.upsertRecords({ bindingKey: 'binding-1', scope, source, records: [{ text: 'likes tea', metadata: { topic: 'drinks' } }] });
    expect(received).toEqual([
      {
        operation: 'upsertRecords',
        arguments: [{ bindingKey: 'binding-1', scope, source, records: [{ text: 'likes tea', metadata: { topic: 'drinks' } }] }],
      },
    ]);
  });

  const optionalSurfaces: Array<{ capability: keyof MemoryAdapterCapabilities; name: string; call: (adapter: MemoryAdapter) => Promise<unknown> }> = [
    { capability: 'correction', name: 'correct', call: (adapter) => adapter.correct(ownHandle, { text: 'likes coffee' }, scope) },
    { capability: 'profile', name: 'profile', call: (adapter) => adapter.profile(scope) },
    { capability: 'asyncExtraction', name: 'getExtractionJob', call: (adapter) => adapter.getExtractionJob('job-1', scope) },
    { capability: 'listExtractionJobs', name: 'listExtractionJobs', call: (adapter) => adapter.listExtractionJobs(scope) },
    { capability: 'retryExtractionJob', name: 'retryExtractionJob', call: (adapter) => adapter.retryExtractionJob('job-1', scope) },
    { capability: 'explain', name: 'explain', call: (adapter) => adapter.explain({ snippets: [] }, scope) },
  ];

  it.each(optionalSurfaces)('refuses $name without the $capability flag, even when implemented', async ({ name, call }) => {
    const { adapter, received } = createRecordingImplementation({});
    await expect(call(adapter)).rejects.toBeInstanceOf(UnsupportedCapabilityError);
    await expect(call(adapter)).rejects.toMatchObject({ capability: name, provider: key });
    expect(received).toEqual([]);
  });

  it.each(optionalSurfaces)('calls $name when the $capability flag is on', async ({ name, capability, call }) => {
    const { adapter, received } = createRecordingImplementation({ [capability]: true });
    await call(adapter);
    expect(received.map((entry) => entry.operation)).toEqual([name]);
  });

  it('refuses a surface whose flag is on but whose operation is missing', async () => {
    const { implementation } = createRecordingImplementation({ profile: true });
    const { profile: _omitted, ...withoutProfile } = implementation;
    await expect(defineMemoryAdapter(withoutProfile).profile(scope)).rejects.toBeInstanceOf(UnsupportedCapabilityError);
  });

  it('refuses an invalid capability manifest when defined', () => {
    const { implementation } = createRecordingImplementation();
    const capabilities = { profile: 'yes' } as unknown as MemoryAdapterCapabilities;
    expect(() => defineMemoryAdapter({ ...implementation, capabilities })).toThrow(
      expect.objectContaining({ code: 'MEMORY_VALIDATION', field: 'capabilities.profile' }) as MemoryValidationError,
    );
    const remote = { remoteOperations: ['query', 'search'] } as unknown as MemoryAdapterCapabilities;
    expect(() => defineMemoryAdapter({ ...implementation, capabilities: remote })).toThrow(
      expect.objectContaining({ code: 'MEMORY_VALIDATION', field: 'capabilities.remoteOperations.1' }) as MemoryValidationError,
    );
    expect(defineMemoryAdapter({ ...implementation, capabilities: { remoteOperations: ['capture'] } }).capabilities.remoteOperations).toEqual(['capture']);
  });

  it('answers get with null for a handle of another adapter, without calling the implementation', async () => {
    const { adapter, received } = createRecordingImplementation();
    await expect(adapter.get(foreignHandle, scope)).resolves.toBeNull();
    expect(received).toEqual([]);
  });

  it('forgets only its own handles and warns about the others', async () => {
    const { adapter, received } = createRecordingImplementation();
    const result = await adapter.forget([ownHandle, foreignHandle], scope);
    expect(received).toEqual([{ operation: 'forget', arguments: [[ownHandle], scope] }]);
    expect(result.warnings).toEqual([
      { type: 'other', message: 'Skipped handle mem0-record-9: it was issued by mem0, not recording.' },
    ]);
  });

  it('reports a handle of another adapter as not found on correct, without calling the implementation', async () => {
    const { adapter, received } = createRecordingImplementation({ correction: true });
    await expect(adapter.correct(foreignHandle, { text: 'likes coffee' }, scope)).rejects.toBeInstanceOf(MemoryNotFoundError);
    expect(received).toEqual([]);
  });

  it('describes itself from the implementation', () => {
    const { adapter } = createRecordingImplementation({ profile: true });
    expect(adapter).toMatchObject({ specificationVersion: 'v1', key, capabilities: { profile: true } });
  });
});
