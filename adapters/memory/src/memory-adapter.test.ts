import { MemoryValidationError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter';
import { acme, bindingKey, createTestAdapter, listAll, rejectionOf, write } from './memory-test-support';

describe('createMemoryAdapter', () => {
  it('is the v1 adapter with key memory and an honest capability manifest', () => {
    const adapter = createMemoryAdapter();
    expect(adapter.specificationVersion).toBe('v1');
    expect(adapter.key).toBe('memory');
    expect(adapter.capabilities).toEqual({
      profile: true,
      correction: true,
      multimodal: false,
      providerManagedExtraction: true,
      asyncExtraction: true,
      providerNativeBrowse: false,
      listExtractionJobs: true,
      retryExtractionJob: true,
      explain: true,
      metadataFilter: true,
    });
  });

  it('gives each adapter its own store by default', async () => {
    const first = createMemoryAdapter();
    const second = createMemoryAdapter();
    await write(first, acme, 'Only in the first store.');
    expect(await listAll(second, acme)).toEqual([]);
  });

  it('reads back what it wrote, with handle, scope, source, metadata and timestamps', async () => {
    const adapter = createTestAdapter();
    const scope: MemoryScope = { agentId: 'planner', companyId: 'acme' };
    const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'ISS-1', commentId: 'c-9' };
    const { records } = await adapter.upsertRecords({
      bindingKey,
      scope,
      source,
      records: [{ text: 'Deploys happen on Tuesdays.', summary: 'deploy day', metadata: { kind: 'fact', tags: ['ops'] } }],
    });
    expect(records).toEqual([{ providerKey: 'memory', providerRecordId: 'mem_000001' }]);
    expect(await adapter.get(records?.[0] as never, scope)).toEqual({
      handle: { providerKey: 'memory', providerRecordId: 'mem_000001' },
      text: 'Deploys happen on Tuesdays.',
      summary: 'deploy day',
      source,
      metadata: { kind: 'fact', tags: ['ops'] },
      scope: { companyId: 'acme', agentId: 'planner' },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('numbers records per store in write order', async () => {
    const adapter = createTestAdapter();
    const handles = await write(adapter, acme, 'one', 'two', 'three');
    expect(handles.map((handle) => handle.providerRecordId)).toEqual(['mem_000001', 'mem_000002', 'mem_000003']);
  });

  it('never lets a caller change the store through inputs or results', async () => {
    const adapter = createTestAdapter();
    const metadata = { tags: ['a'], nested: { value: 1 } };
    const [handle] = await write(adapter, acme, { text: 'Shared objects stay private.', metadata });
    metadata.tags.push('mutated input');
    metadata.nested.value = 2;

    const first = await adapter.get(handle as never, acme);
    (first?.metadata?.tags as string[]).push('mutated result');
    if (first?.scope !== undefined) first.scope.companyId = 'globex';
    const page = await adapter.list({ bindingKey, scope: acme });
    (page.items[0]?.metadata as Record<string, unknown>).extra = true;

    const again = await adapter.get(handle as never, acme);
    expect(again?.metadata).toEqual({ tags: ['a'], nested: { value: 1 } });
    expect(again?.scope).toEqual({ companyId: 'acme' });
  });

  describe('usage', () => {
    async function everyOperation(adapter: MemoryAdapter) {
      const source = { kind: 'manual_note' as const, companyId: 'acme' };
      const [handle] = await write(adapter, acme, 'Usage is reported for every call.');
      const captured = await adapter.capture({ bindingKey, scope: acme, source, payload: { text: 'A note. Another.' } });
      const jobId = captured.jobs?.[0]?.providerJobId as string;
      const query = await adapter.query({ bindingKey, scope: acme, query: 'usage reported' });
      return {
        capture: captured,
        upsertRecords: await adapter.upsertRecords({ bindingKey, scope: acme, records: [{ text: 'Another one.' }] }),
        query,
        list: await adapter.list({ bindingKey, scope: acme }),
        correct: await adapter.correct(handle as never, { summary: 'usage' }, acme),
        profile: await adapter.profile(acme),
        getExtractionJob: await adapter.getExtractionJob(jobId, acme),
        listExtractionJobs: await adapter.listExtractionJobs(acme),
        explain: await adapter.explain(query, acme),
        forget: await adapter.forget([handle as never], acme),
      };
    }

    it('reports one untracked entry with a measured latency and no invented counters', async () => {
      const results = await everyOperation(createTestAdapter());
      for (const [operation, result] of Object.entries(results)) {
        expect(result.usage, operation).toHaveLength(1);
        const [entry] = result.usage ?? [];
        expect(entry?.provider, operation).toBe('memory');
        expect(entry?.attributionMode, operation).toBe('untracked');
        expect(entry?.latencyMs, operation).toBeGreaterThanOrEqual(0);
        for (const counter of ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents', 'billingType']) {
          expect(entry, `${operation} ${counter}`).not.toHaveProperty(counter);
        }
      }
    });
  });

  describe('determinism', () => {
    async function script(adapter: MemoryAdapter): Promise<unknown[]> {
      const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };
      const outputs: unknown[] = [];
      const handles = await write(
        adapter,
        acme,
        { text: 'The user prefers dark mode.', metadata: { kind: 'preference' } },
        'Deploys happen on Tuesdays.',
        'Deploys are frozen in December.',
      );
      outputs.push(handles);
      const captured = await adapter.capture({
        bindingKey,
        scope: acme,
        source,
        payload: { text: 'Tests must pass before a deploy. The staging cluster is eu-west.' },
      });
      outputs.push(captured.jobs);
      const jobId = captured.jobs?.[0]?.providerJobId as string;
      outputs.push((await adapter.getExtractionJob(jobId, acme)).job, (await adapter.getExtractionJob(jobId, acme)).job);
      const firstPage = await adapter.list({ bindingKey, scope: acme, limit: 2 });
      outputs.push(firstPage.items, firstPage.nextCursor);
      outputs.push((await adapter.list({ bindingKey, scope: acme, limit: 2, cursor: firstPage.nextCursor })).items);
      const query = await adapter.query({ bindingKey, scope: acme, query: 'when are deploys?' });
      outputs.push(query.snippets, (await adapter.explain(query, acme)).steps);
      outputs.push((await adapter.correct(handles[1] as never, { text: 'Deploys happen on Wednesdays.' }, acme)).record);
      outputs.push((await adapter.profile(acme)).summary, (await adapter.listExtractionJobs(acme)).items);
      return outputs;
    }

    it('gives the same ids, timestamps, scores and cursors for the same calls', async () => {
      const first = await script(createTestAdapter());
      const second = await script(createTestAdapter());
      expect(second).toEqual(first);
      expect(JSON.stringify(first)).toContain('mem_000004');
      expect(JSON.stringify(first)).toContain('job_000001');
    });
  });

  describe('validation', () => {
    it('refuses a bad write naming the field, and writes nothing', async () => {
      const adapter = createTestAdapter();
      const error = await rejectionOf(
        adapter.upsertRecords({ bindingKey, scope: acme, records: [{ text: 'A valid record.' }, { text: '   ' }] }),
      );
      expect(MemoryValidationError.isInstance(error)).toBe(true);
      expect((error as MemoryValidationError).field).toBe('records.1.text');
      expect(await listAll(adapter, acme)).toEqual([]);
    });

    it('names bad scope fields', async () => {
      const adapter = createTestAdapter();
      const error = await rejectionOf(
        adapter.query({ bindingKey, scope: { companyId: '', agentId: 'a' }, query: 'anything' }),
      );
      expect((error as MemoryValidationError).field).toBe('scope.companyId');
      const unknown = await rejectionOf(adapter.list({ bindingKey, scope: { companyId: 'acme', team: 'x' } as never }));
      expect(MemoryValidationError.isInstance(unknown)).toBe(true);
    });

    it('refuses a capture without payload and starts no job', async () => {
      const adapter = createTestAdapter();
      const error = await rejectionOf(
        adapter.capture({ bindingKey, scope: acme, source: { kind: 'run', companyId: 'acme' }, payload: { text: ' ' } }),
      );
      expect((error as MemoryValidationError).field).toBe('payload.text');
      expect((await adapter.listExtractionJobs(acme)).items).toEqual([]);
    });

    it('refuses an empty correction naming the patch, and changes nothing', async () => {
      const adapter = createTestAdapter();
      const [handle] = await write(adapter, acme, 'Unchanged.');
      const error = await rejectionOf(adapter.correct(handle as never, {}, acme));
      expect((error as MemoryValidationError).field).toBe('patch.text');
      expect((await adapter.get(handle as never, acme))?.text).toBe('Unchanged.');
    });
  });
});
