import { MemoryNotFoundError, MemoryValidationError } from '@memplane/core';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { bodiesTo, createTestAdapter } from './testing/mem0-test-support';

let extractionFailure = () => false;
const fake = createMem0Fake({ isExtractionFailureInForce: () => extractionFailure() });
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
extractionFailure = () => testServer.faults.isExtractionFailureInForce();
const scope = { companyId: 'jobs-co', agentId: 'planner' };
const source = { kind: 'issue_comment' as const, companyId: 'jobs-co', issueId: 'ISS-1' };
const hook = { hookKind: 'post_run_capture' as const, hookId: 'hook-1', triggeredAt: '2026-11-01T10:00:00Z' };

async function capture(adapter: ReturnType<typeof createTestAdapter>, text = 'The team deploys on Tuesdays.') {
  const { jobs } = await adapter.capture({ bindingKey: 'b', scope, source, hook, payload: { text } });
  const [job] = jobs ?? [];
  if (job === undefined) throw new TypeError('a job was expected');
  return job;
}

describe('mem0 extraction jobs', () => {
  it('maps the event statuses honestly: PENDING, RUNNING, then SUCCEEDED with timestamps, source and hook kind', async () => {
    const adapter = createTestAdapter(fake);
    const job = await capture(adapter);
    expect(job).toMatchObject({ status: 'queued', source, hookKind: 'post_run_capture' });
    const statuses: string[] = [];
    for (let poll = 0; poll < 3; poll += 1) statuses.push((await adapter.getExtractionJob(job.providerJobId, scope)).job?.status ?? 'missing');
    expect(statuses).toEqual(['running', 'succeeded', 'succeeded']);
    const { job: done, usage } = await adapter.getExtractionJob(job.providerJobId, scope);
    expect(done).toMatchObject({ providerJobId: job.providerJobId, source, hookKind: 'post_run_capture' });
    expect(done?.submittedAt && done.startedAt && done.finishedAt).toBeTruthy();
    expect(usage?.[0]).toMatchObject({ provider: 'mem0', details: { serverLatencyMs: 1834.5 }, raw: { latency: 1834.5 } });
    expect(usage?.[0]?.inputTokens).toBeUndefined();
  });

  it('reads an unknown event, and an event of another scope, as null', async () => {
    const adapter = createTestAdapter(fake);
    const job = await capture(adapter);
    expect((await adapter.getExtractionJob('00000000-0000-4000-8000-999999999999', scope)).job).toBeNull();
    expect((await adapter.getExtractionJob('not-a-uuid', scope)).job).toBeNull();
    expect((await adapter.getExtractionJob(job.providerJobId, { ...scope, agentId: 'reviewer' })).job).toBeNull();
    expect((await adapter.getExtractionJob(job.providerJobId, { companyId: 'other-co' })).job).toBeNull();
  });

  it('reports a failed job with mem0 error, and retries it by sending its original add again', async () => {
    const adapter = createTestAdapter(fake);
    testServer.faults.inject({ kind: 'extraction_failure' });
    const job = await capture(adapter, 'Alice prefers tea.');
    testServer.faults.reset();
    fake.drain();
    const { job: failed } = await adapter.getExtractionJob(job.providerJobId, scope);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('extraction') });
    const originalAdd = bodiesTo(testServer, 'POST', '/v3/memories/add/')[0];

    const { job: retried } = await adapter.retryExtractionJob(job.providerJobId, scope);
    expect(retried.providerJobId).not.toBe(job.providerJobId);
    expect(retried).toMatchObject({ status: 'queued', source, hookKind: 'post_run_capture' });
    expect(bodiesTo(testServer, 'POST', '/v3/memories/add/')[1]).toEqual(originalAdd);
    fake.drain();
    expect((await adapter.getExtractionJob(retried.providerJobId, scope)).job?.status).toBe('succeeded');
    expect((await adapter.list({ bindingKey: 'b', scope })).items.map((item) => item.text)).toContain('Alice prefers tea.');
  });

  it('refuses to retry a job that did not fail, or one outside the scope', async () => {
    const adapter = createTestAdapter(fake);
    const job = await capture(adapter);
    fake.drain();
    await expect(adapter.retryExtractionJob(job.providerJobId, scope)).rejects.toSatisfy((error) => MemoryValidationError.isInstance(error) && error.field === 'providerJobId');
    await expect(adapter.retryExtractionJob(job.providerJobId, { companyId: 'other-co' })).rejects.toSatisfy(MemoryNotFoundError.isInstance);
  });

  it('lists the scope jobs across mem0 event pages, skipping other scopes and verbatim adds', async () => {
    const adapter = createTestAdapter(fake);
    const mine = await capture(adapter, 'My job.');
    for (let index = 0; index < 60; index += 1) {
      await adapter.capture({ bindingKey: 'b', scope: { companyId: 'noise-co' }, source: { kind: 'manual_note', companyId: 'noise-co' }, payload: { text: `Noise ${index}.` } });
    }
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'verbatim, not a job' }] });
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await adapter.listExtractionJobs(scope, cursor);
      ids.push(...page.items.map((item) => item.providerJobId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThan(1);
    expect(ids).toContain(mine.providerJobId);
    const events = [...fake.store.events.values()];
    const eventOf = (id: string) => events.find((event) => event.id === id.split('.')[0]);
    for (const id of ids) expect(eventOf(id)?.payload.app_id).toBe('jobs-co');
    expect(ids.every((id) => eventOf(id)?.payload.infer !== false)).toBe(true);
  });

  it('never fails a page of the project events because of one odd event of any tenant', async () => {
    const adapter = createTestAdapter(fake);
    const mine = await capture(adapter, 'Listed despite the odd ones.');
    const template = [...fake.store.events.values()][0];
    if (template === undefined) throw new TypeError('an event was expected');
    const odd = { ...structuredClone(template), id: '00000000-0000-4000-8000-0000000000aa' };
    // A status mem0 may add later, on an event of another tenant of the project.
    fake.store.events.set(odd.id, { ...odd, status: 'CANCELLED' as 'FAILED', payload: { ...odd.payload, app_id: 'tenant-x', metadata: { memplane_company: 'tenant-x' } } });
    fake.store.events.set('no-shape', { id: '', event_type: 'ADD', status: 'PENDING' } as never);
    const page = await adapter.listExtractionJobs(scope);
    expect(page.items.map((job) => job.providerJobId)).toContain(mine.providerJobId);
    expect(page.warnings).toContainEqual(expect.objectContaining({ type: 'other', message: expect.stringContaining('1 mem0 event(s)') }));
    fake.store.events.delete(odd.id);
    fake.store.events.delete('no-shape');
  });

  it('refuses a job id whose scope part was changed, before calling mem0', async () => {
    const adapter = createTestAdapter(fake);
    const job = await capture(adapter);
    const [eventId, , signature] = job.providerJobId.split('.');
    const forged = `${eventId}.${'A'.repeat(22)}.${signature}`;
    const before = testServer.calls.length;
    expect((await adapter.getExtractionJob(forged, scope)).job).toBeNull();
    expect((await adapter.getExtractionJob(eventId as string, scope)).job).toBeNull();
    expect(testServer.calls.length).toBe(before);
  });
});
