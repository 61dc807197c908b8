import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

// mem0 documents an event's `payload` only as "the original payload" (Get Event): these
// tests run against a fake whose events echo none of the request.
let silentFailure = () => false;
const silent = createMem0Fake({ eventPayloadEcho: 'none', isExtractionFailureInForce: () => silentFailure() });
const silentServer = setupTestServer(silent.handlers, { faultUrls: silent.faultUrls });
silentFailure = () => silentServer.faults.isExtractionFailureInForce();
const scope = { companyId: 'jobs-co', agentId: 'planner' };
const source = { kind: 'issue_comment' as const, companyId: 'jobs-co', issueId: 'ISS-1' };

async function capture(adapter: ReturnType<typeof createTestAdapter>, text: string) {
  const { jobs } = await adapter.capture({ bindingKey: 'b', scope, source, payload: { text } });
  const [job] = jobs ?? [];
  if (job === undefined) throw new TypeError('a job was expected');
  return job;
}

describe('mem0 extraction jobs when events do not echo the original request', () => {

  it('still follow a capture to succeeded in its scope, and only there', async () => {
    const adapter = createTestAdapter(silent);
    const job = await capture(adapter, 'Jobs finish without an echo.');
    let status: string | undefined;
    for (let poll = 0; poll < 3 && status !== 'succeeded'; poll += 1) status = (await adapter.getExtractionJob(job.providerJobId, scope)).job?.status;
    expect(status).toBe('succeeded');
    expect((await adapter.getExtractionJob(job.providerJobId, { companyId: 'jobs-co' })).job?.status).toBe('succeeded');
    expect((await adapter.getExtractionJob(job.providerJobId, { ...scope, agentId: 'reviewer' })).job).toBeNull();
    expect((await adapter.getExtractionJob(job.providerJobId, { companyId: 'jobs-co', projectId: 'unproven' })).job).toBeNull();
    expect((await adapter.getExtractionJob(job.providerJobId, { companyId: 'other-co' })).job).toBeNull();
  });

  it('leave unplaceable events out of the job list, with a warning, and refuse to retry what was not kept', async () => {
    const adapter = createTestAdapter(silent);
    silentServer.faults.inject({ kind: 'extraction_failure' });
    const job = await capture(adapter, 'Fails without an echo.');
    silentServer.faults.reset();
    silent.drain();
    const page = await adapter.listExtractionJobs(scope);
    expect(page.items).toEqual([]);
    expect(page.warnings).toContainEqual(expect.objectContaining({ type: 'other' }));
    expect((await adapter.getExtractionJob(job.providerJobId, scope)).job?.status).toBe('failed');
    const adds = silentServer.calls.filter((call) => call.pathname === '/v3/memories/add/').length;
    await expect(adapter.retryExtractionJob(job.providerJobId, scope)).rejects.toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: false });
    expect(silentServer.calls.filter((call) => call.pathname === '/v3/memories/add/').length).toBe(adds);
  });
});
