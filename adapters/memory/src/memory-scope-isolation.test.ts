import { memoryScopeFields, type MemoryAdapter, type MemoryScope, type MemoryScopeField } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { bindingKey, createTestAdapter, listAll, rejectionOf, write } from './memory-test-support';

/** A written record's scope and a request scope that differs from it in exactly `field`. */
function scopesDifferingIn(field: MemoryScopeField): { written: MemoryScope; other: MemoryScope } {
  if (field === 'companyId') return { written: { companyId: 'acme' }, other: { companyId: 'globex' } };
  return { written: { companyId: 'acme', [field]: 'one' }, other: { companyId: 'acme', [field]: 'two' } };
}

async function seed(adapter: MemoryAdapter, scope: MemoryScope) {
  const source = { kind: 'manual_note' as const, companyId: scope.companyId };
  const [handle] = await write(adapter, scope, { text: 'The launch codes are fenced.', metadata: { kind: 'constraint' } });
  const captured = await adapter.capture({ bindingKey, scope, source, payload: { text: 'Fenced launch codes.' } });
  return { handle: handle as never, jobId: captured.jobs?.[0]?.providerJobId as string };
}

describe.each(memoryScopeFields)('scope isolation on %s', (field) => {
  const { written, other } = scopesDifferingIn(field);

  it('hides the record and its job from every read in the other scope', async () => {
    const adapter = createTestAdapter();
    const { handle, jobId } = await seed(adapter, written);
    const query = await adapter.query({ bindingKey, scope: written, query: 'launch codes' });

    expect(await adapter.get(handle, other)).toBeNull();
    expect(await listAll(adapter, other)).toEqual([]);
    expect((await adapter.query({ bindingKey, scope: other, query: 'launch codes' })).snippets).toEqual([]);
    expect(await adapter.profile(other)).toMatchObject({ summary: '', items: [] });
    expect((await adapter.explain(query, other)).steps).toEqual([]);
    expect((await adapter.getExtractionJob(jobId, other)).job).toBeNull();
    expect((await adapter.listExtractionJobs(other)).items).toEqual([]);
    expect((await rejectionOf(adapter.retryExtractionJob(jobId, other)) as Error).name).toBe('MemoryNotFoundError');
  });

  it('lets no write in the other scope touch the record', async () => {
    const adapter = createTestAdapter();
    const { handle } = await seed(adapter, written);
    expect((await rejectionOf(adapter.correct(handle, { text: 'Hijacked.' }, other)) as Error).name).toBe(
      'MemoryNotFoundError',
    );
    await adapter.forget([handle], other);
    await write(adapter, other, 'The launch codes are fenced.');
    expect((await adapter.get(handle, written))?.text).toBe('The launch codes are fenced.');
    expect(await listAll(adapter, written)).toEqual(['The launch codes are fenced.']);
  });

  it('shows the record to the same scope, and to a broader one of the same company', async () => {
    const adapter = createTestAdapter();
    const { handle, jobId } = await seed(adapter, written);
    const broader: MemoryScope = { companyId: written.companyId };
    for (const scope of [written, broader]) {
      expect((await adapter.get(handle, scope))?.text).toBe('The launch codes are fenced.');
      expect((await adapter.query({ bindingKey, scope, query: 'launch codes' })).snippets).toHaveLength(1);
      expect((await adapter.getExtractionJob(jobId, scope)).job?.providerJobId).toBe(jobId);
    }
  });
});

describe('scope isolation', () => {
  it('hides a record written without a field from requests that set it', async () => {
    const adapter = createTestAdapter();
    const [handle] = await write(adapter, { companyId: 'acme' }, 'Company-wide note.');
    expect(await adapter.get(handle as never, { companyId: 'acme', agentId: 'planner' })).toBeNull();
    expect(await adapter.get(handle as never, { companyId: 'acme' })).not.toBeNull();
  });

  it('keeps one scope from influencing the scores of another', async () => {
    const alone = createTestAdapter();
    const crowded = createTestAdapter();
    for (const adapter of [alone, crowded]) await write(adapter, { companyId: 'acme' }, 'Deploys happen on Tuesdays.', 'Lunch is at noon.');
    await write(crowded, { companyId: 'globex' }, 'Deploys deploys deploys.', 'Deploys again.', 'More deploys.');
    const ask = (adapter: MemoryAdapter) => adapter.query({ bindingKey, scope: { companyId: 'acme' }, query: 'deploys' });
    expect((await ask(crowded)).snippets).toEqual((await ask(alone)).snippets);
  });
});
