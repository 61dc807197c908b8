import { MemoryConflictError, MemoryNotFoundError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { extractStatements } from './memory-extraction';
import { createMemoryAdapterFaults } from './memory-faults';
import { acme, bindingKey, createTestAdapter, createTestClock, listAll, rejectionOf } from './memory-test-support';

const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-7' };
const hook = {
  hookKind: 'post_run_capture' as const,
  hookId: 'hook-1',
  triggeredAt: '2025-01-01T00:00:00.000Z',
};

async function captureText(adapter: MemoryAdapter, text: string, scope: MemoryScope = acme) {
  const result = await adapter.capture({
    bindingKey,
    scope,
    source: { ...source, companyId: scope.companyId },
    payload: { text },
    hook,
    metadata: { origin: 'test' },
  });
  return result.jobs?.[0]?.providerJobId as string;
}

describe('extractStatements', () => {
  it('splits sentences at . ! ? followed by whitespace, and at line breaks', () => {
    expect(extractStatements('We ship on Fridays. Tests must pass!\nIs staging up? Yes.')).toEqual([
      'We ship on Fridays.',
      'Tests must pass!',
      'Is staging up?',
      'Yes.',
    ]);
  });

  it('keeps marks that are not followed by whitespace', () => {
    expect(extractStatements('Version 2.5 ships on v1.example.com today. Done')).toEqual([
      'Version 2.5 ships on v1.example.com today.',
      'Done',
    ]);
  });

  it('trims, drops fragments under 3 characters and drops repeats', () => {
    expect(extractStatements('  ok \n\r\n Fine.  Fine.\nA.\n  x  \nabc')).toEqual(['Fine.', 'abc']);
    expect(extractStatements('. ! ?')).toEqual([]);
  });
});

describe('extraction jobs', () => {
  it('queue on capture and advance one step per poll', async () => {
    const clock = createTestClock();
    const adapter = createTestAdapter({ now: clock.now });
    const captured = await adapter.capture({
      bindingKey,
      scope: acme,
      source,
      payload: { text: 'We ship on Fridays. Tests must pass!' },
      hook,
      metadata: { origin: 'test' },
    });
    expect(captured).not.toHaveProperty('records');
    expect(captured.jobs).toEqual([
      { providerJobId: 'job_000001', status: 'queued', hookKind: 'post_run_capture', source, submittedAt: '2025-01-01T00:00:00.000Z' },
    ]);
    expect(await listAll(adapter, acme)).toEqual([]);

    clock.advance(1000);
    expect((await adapter.getExtractionJob('job_000001', acme)).job).toMatchObject({
      status: 'running',
      startedAt: '2025-01-01T00:00:01.000Z',
    });
    expect(await listAll(adapter, acme)).toEqual([]);

    clock.advance(1000);
    const finished = (await adapter.getExtractionJob('job_000001', acme)).job;
    expect(finished).toEqual({
      providerJobId: 'job_000001',
      status: 'succeeded',
      hookKind: 'post_run_capture',
      source,
      submittedAt: '2025-01-01T00:00:00.000Z',
      startedAt: '2025-01-01T00:00:01.000Z',
      finishedAt: '2025-01-01T00:00:02.000Z',
    });

    const page = await adapter.list({ bindingKey, scope: acme });
    expect(page.items).toEqual([
      expect.objectContaining({
        text: 'We ship on Fridays.',
        source,
        scope: acme,
        metadata: { origin: 'test', extractionJobId: 'job_000001' },
        createdAt: '2025-01-01T00:00:02.000Z',
      }),
      expect.objectContaining({ text: 'Tests must pass!', metadata: { origin: 'test', extractionJobId: 'job_000001' } }),
    ]);

    clock.advance(1000);
    expect((await adapter.getExtractionJob('job_000001', acme)).job).toEqual(finished);
    expect(await listAll(adapter, acme)).toHaveLength(2);
  });

  it('take extractionPollsToFinish polls to finish', async () => {
    for (const polls of [1, 3]) {
      const adapter = createTestAdapter({ extractionPollsToFinish: polls });
      const jobId = await captureText(adapter, 'One statement.');
      const statuses: string[] = [];
      for (let poll = 0; poll < polls + 1; poll += 1) {
        statuses.push((await adapter.getExtractionJob(jobId, acme)).job?.status ?? 'missing');
      }
      expect(statuses).toEqual([...Array.from({ length: polls - 1 }, () => 'running'), 'succeeded', 'succeeded']);
    }
  });

  it('are not advanced by listing', async () => {
    const adapter = createTestAdapter();
    const jobId = await captureText(adapter, 'Listed, not polled.');
    await adapter.listExtractionJobs(acme);
    await adapter.listExtractionJobs(acme);
    expect((await adapter.listExtractionJobs(acme)).items.map((job) => job.status)).toEqual(['queued']);
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('running');
  });

  it('read as null when unknown or out of scope', async () => {
    const adapter = createTestAdapter();
    const jobId = await captureText(adapter, 'Scoped job.', { companyId: 'acme', agentId: 'a' });
    expect((await adapter.getExtractionJob('job_000999', acme)).job).toBeNull();
    expect((await adapter.getExtractionJob(jobId, { companyId: 'acme', agentId: 'b' })).job).toBeNull();
    expect((await adapter.getExtractionJob(jobId, { companyId: 'globex' })).job).toBeNull();
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('running');
  });

  it('are listed by scope in submission order, 50 a page', async () => {
    const adapter = createTestAdapter();
    for (let index = 0; index < 51; index += 1) await captureText(adapter, `Job ${index + 1} text.`);
    await captureText(adapter, 'Another company.', { companyId: 'globex' });
    const first = await adapter.listExtractionJobs(acme);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]?.providerJobId).toBe('job_000001');
    const second = await adapter.listExtractionJobs(acme, first.nextCursor);
    expect(second.items.map((job) => job.providerJobId)).toEqual(['job_000051']);
    expect(second).not.toHaveProperty('nextCursor');
    expect((await adapter.listExtractionJobs({ companyId: 'globex' })).items.map((job) => job.providerJobId)).toEqual([
      'job_000052',
    ]);
  });

  it('fail under the extraction_failure fault, write nothing, and succeed when retried after reset', async () => {
    const clock = createTestClock();
    const faults = createMemoryAdapterFaults();
    const adapter = createTestAdapter({ faults, now: clock.now });
    const jobId = await captureText(adapter, 'Will fail first. Then work.');
    faults.inject({ kind: 'extraction_failure' });
    clock.advance(1000);
    const failed = (await adapter.getExtractionJob(jobId, acme)).job;
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'Extraction failed: the extraction_failure fault was in force.',
      startedAt: '2025-01-01T00:00:01.000Z',
      finishedAt: '2025-01-01T00:00:01.000Z',
    });
    expect(await listAll(adapter, acme)).toEqual([]);
    expect((await adapter.getExtractionJob(jobId, acme)).job).toEqual(failed);

    faults.reset();
    const retried = await adapter.retryExtractionJob(jobId, acme);
    expect(retried.job).toEqual({
      providerJobId: jobId,
      status: 'queued',
      hookKind: 'post_run_capture',
      source,
      submittedAt: '2025-01-01T00:00:00.000Z',
    });
    await adapter.getExtractionJob(jobId, acme);
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('succeeded');
    expect(await listAll(adapter, acme)).toEqual(['Will fail first.', 'Then work.']);
  });

  it('fail when the fault was in force at submission, even if reset before the poll', async () => {
    const faults = createMemoryAdapterFaults();
    const adapter = createTestAdapter({ faults });
    faults.inject({ kind: 'extraction_failure' });
    const jobId = await captureText(adapter, 'Doomed at submission.');
    faults.reset();
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('failed');
  });

  it('can only be retried when failed', async () => {
    const adapter = createTestAdapter();
    const jobId = await captureText(adapter, 'Not failed.');
    const conflict = await rejectionOf(adapter.retryExtractionJob(jobId, acme));
    expect(MemoryConflictError.isInstance(conflict)).toBe(true);
    expect((conflict as Error).message).toBe('Extraction job job_000001 is queued; only failed jobs can be retried.');
    await adapter.getExtractionJob(jobId, acme);
    await adapter.getExtractionJob(jobId, acme);
    expect(MemoryConflictError.isInstance(await rejectionOf(adapter.retryExtractionJob(jobId, acme)))).toBe(true);
    expect(MemoryNotFoundError.isInstance(await rejectionOf(adapter.retryExtractionJob('job_000404', acme)))).toBe(true);
  });

  it('write nothing for text without statements, and still succeed', async () => {
    const adapter = createTestAdapter({ extractionPollsToFinish: 1 });
    const jobId = await captureText(adapter, 'ok\nno');
    expect((await adapter.getExtractionJob(jobId, acme)).job?.status).toBe('succeeded');
    expect(await listAll(adapter, acme)).toEqual([]);
  });
});
