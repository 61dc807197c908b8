import { MemoryScopeViolationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { acme, bindingKey, createTestAdapter, listAll, rejectionOf } from './memory-test-support';

const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'ISS-1', commentId: 'c-1' };

describe('capture', () => {
  it('stores one record at once in capture_record mode, with source and metadata', async () => {
    const adapter = createTestAdapter();
    const result = await adapter.capture({
      bindingKey,
      scope: acme,
      source,
      payload: { text: 'Ship it on Friday. Or not.', mimeType: 'text/markdown' },
      mode: 'capture_record',
      metadata: { kind: 'decision' },
    });
    expect(result.records).toEqual([{ providerKey: 'memory', providerRecordId: 'mem_000001' }]);
    expect(result).not.toHaveProperty('jobs');
    expect(result.warnings).toEqual([]);
    expect(await adapter.get(result.records?.[0] as never, acme)).toMatchObject({
      text: 'Ship it on Friday. Or not.',
      source,
      metadata: { kind: 'decision' },
    });
  });

  it('keeps an object payload as its JSON text and says so', async () => {
    const adapter = createTestAdapter();
    const object = { title: 'Outage', steps: ['restart', 'verify'] };
    const result = await adapter.capture({
      bindingKey,
      scope: acme,
      source,
      payload: { object, mimeType: 'application/vnd.example+json' },
      mode: 'capture_record',
    });
    expect(await listAll(adapter, acme)).toEqual([JSON.stringify(object)]);
    expect(result.warnings).toEqual([
      { type: 'compatibility', feature: 'payload.object', details: 'The adapter is text-only; the object was kept as its JSON text.' },
      { type: 'compatibility', feature: 'payload.mimeType', details: 'Kept as plain text, not as application/vnd.example+json.' },
    ]);
  });

  it('warns about what it drops: an object next to text, and payload metadata', async () => {
    const adapter = createTestAdapter();
    const result = await adapter.capture({
      bindingKey,
      scope: acme,
      source,
      payload: { text: 'The text wins.', object: { ignored: true }, metadata: { lang: 'en' } },
      mode: 'capture_record',
    });
    expect(await listAll(adapter, acme)).toEqual(['The text wins.']);
    expect(result.warnings).toEqual([
      { type: 'unsupported', feature: 'payload.object', details: 'The object was ignored; the payload text was kept.' },
      { type: 'unsupported', feature: 'payload.metadata', details: 'Payload metadata is not stored; request metadata is.' },
    ]);
  });

  it('extracts an object payload from its JSON text in capture_residue mode', async () => {
    const adapter = createTestAdapter({ extractionPollsToFinish: 1 });
    const result = await adapter.capture({ bindingKey, scope: acme, source, payload: { object: { note: 'Rollback worked.' } } });
    const jobId = result.jobs?.[0]?.providerJobId as string;
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('succeeded');
    expect(await listAll(adapter, acme)).toEqual(['{"note":"Rollback worked."}']);
  });

  it('refuses a source of another company before writing anything', async () => {
    const adapter = createTestAdapter();
    const error = await rejectionOf(
      adapter.capture({
        bindingKey,
        scope: acme,
        source: { kind: 'manual_note', companyId: 'globex' },
        payload: { text: 'Cross-company.' },
        mode: 'capture_record',
      }),
    );
    expect(MemoryScopeViolationError.isInstance(error)).toBe(true);
    expect(await listAll(adapter, acme)).toEqual([]);
    expect((await adapter.listExtractionJobs(acme)).items).toEqual([]);
  });
});
