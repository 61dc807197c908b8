import { MemoryNotFoundError, UnsupportedCapabilityError, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { recordedBodies, recordedRoutes } from './testing/agentcore-recorded-requests';
import { setupAgentCoreTestEnvironment, testMemoryId } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();

async function captureFailing(adapter: MemoryAdapter, scope: MemoryScope, text: string): Promise<void> {
  environment.server.faults.inject({ kind: 'extraction_failure' });
  try {
    await adapter.capture({
      bindingKey: 'default',
      scope,
      source: { kind: 'run', companyId: scope.companyId },
      payload: { text },
      hook: { hookKind: 'post_run_capture', hookId: `hook-${text}`, triggeredAt: '2026-11-01T10:00:00.000Z' },
    });
  } finally {
    environment.server.faults.reset();
  }
  environment.fake.drainExtraction();
}

async function listJobIds(adapter: MemoryAdapter, scope: MemoryScope): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await adapter.listExtractionJobs(scope, cursor);
    ids.push(...page.items.map((job) => job.providerJobId));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return ids;
}

describe('extraction jobs', () => {
  it('does not offer getExtractionJob: AgentCore has no per-event status', async () => {
    const adapter = environment.createAdapter();
    expect(adapter.capabilities.asyncExtraction).toBe(false);
    await expect(adapter.getExtractionJob('job-1', { companyId: 'acme' })).rejects.toSatisfy(UnsupportedCapabilityError.isInstance);
  });

  it('lists failed jobs with ListMemoryExtractionJobs as failed, with the reason, and never another company\'s', async () => {
    const adapter = environment.createAdapter();
    await captureFailing(adapter, { companyId: 'acme', agentId: 'planner' }, 'acme turn');
    await captureFailing(adapter, { companyId: 'acme1' }, 'acme1 turn');
    const page = await adapter.listExtractionJobs({ companyId: 'acme' });
    const acmeJob = [...environment.fake.jobs.values()].find((job) => job.actorId === 'c/acme/a/planner');
    expect(page.items).toEqual([
      { providerJobId: acmeJob?.jobID, status: 'failed', error: acmeJob?.failureReason, source: { kind: 'run', companyId: 'acme' }, hookKind: 'post_run_capture' },
    ]);
    expect(page.nextCursor).toBeUndefined();
    expect(page.usage?.map((usage) => usage.details?.operation)).toEqual(['ListMemoryExtractionJobs', 'GetEvent']);
    expect(page.usage?.every((usage) => usage.billingType === 'metered_api' && usage.attributionMode === 'external_invoice')).toBe(true);
    expect(await listJobIds(adapter, { companyId: 'acme1' })).toHaveLength(1);
    expect(await listJobIds(adapter, { companyId: 'acme', agentId: 'other' })).toEqual([]);
    expect(recordedBodies(environment.server.calls, 'POST', /\/extractionJobs$/)).toMatchInlineSnapshot(`
      [
        {
          "filter": {
            "status": "FAILED",
          },
          "maxResults": 50,
        },
        {
          "filter": {
            "status": "FAILED",
          },
          "maxResults": 50,
        },
        {
          "filter": {
            "actorId": "c/acme/a/other",
            "status": "FAILED",
          },
          "maxResults": 50,
        },
      ]
    `);
  });

  it('checks scope fields that only the event knows by reading the job\'s event', async () => {
    const adapter = environment.createAdapter();
    await captureFailing(adapter, { companyId: 'acme', projectId: 'apollo' }, 'apollo turn');
    await captureFailing(adapter, { companyId: 'acme', projectId: 'gemini' }, 'gemini turn');
    const mark = environment.server.calls.length;
    const page = await adapter.listExtractionJobs({ companyId: 'acme', projectId: 'apollo' });
    expect(page.items).toEqual([expect.objectContaining({ status: 'failed', hookKind: 'post_run_capture' })]);
    expect(recordedRoutes(environment.server.calls.slice(mark)).filter((route) => route.startsWith('GET'))).toHaveLength(2);
  });

  it('pages through many failed jobs with signed cursors', { timeout: 20_000 }, async () => {
    const adapter = environment.createAdapter();
    // Seeded in the fake directly: 60 captures through the adapter would only slow the test down.
    environment.server.faults.inject({ kind: 'extraction_failure' });
    for (let index = 0; index < 60; index += 1) {
      environment.fake.createEvent({ actorId: 'c/acme', eventTimestamp: 1_790_000_000, payload: [{ conversational: { role: 'USER', content: { text: `turn ${index}` } } }] });
    }
    environment.server.faults.reset();
    environment.fake.drainExtraction();
    const first = await adapter.listExtractionJobs({ companyId: 'acme' });
    expect(first.items).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    await expect(adapter.listExtractionJobs({ companyId: 'globex' }, first.nextCursor)).rejects.toMatchObject({ code: 'MEMORY_INVALID_CURSOR' });
    expect(new Set(await listJobIds(adapter, { companyId: 'acme' })).size).toBe(60);
  });

  it('retries a failed job with StartMemoryExtractionJob; the re-driven extraction then produces the records', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner' };
    await captureFailing(adapter, scope, 'The team deploys on Tuesdays.');
    const [failed] = (await adapter.listExtractionJobs(scope)).items;
    const result = await adapter.retryExtractionJob(failed?.providerJobId ?? '', scope);
    expect(result.job).toMatchObject({ providerJobId: failed?.providerJobId, status: 'queued', hookKind: 'post_run_capture' });
    expect(recordedBodies(environment.server.calls, 'POST', /\/extractionJobs\/start$/)).toEqual([{ extractionJob: { jobId: failed?.providerJobId }, clientToken: '<uuid>' }]);
    environment.fake.drainExtraction();
    expect((await adapter.listExtractionJobs(scope)).items).toEqual([]);
    expect((await adapter.list({ bindingKey: 'default', scope })).items.map((item) => item.text)).toEqual(['The team deploys on Tuesdays.']);
    expect(recordedRoutes(environment.server.calls)).toContain(`POST /memories/${testMemoryId}/extractionJobs/start`);
  });

  it('refuses to retry a job of another scope, or one that does not exist, as not found', async () => {
    const adapter = environment.createAdapter();
    await captureFailing(adapter, { companyId: 'acme' }, 'acme turn');
    const [failed] = (await adapter.listExtractionJobs({ companyId: 'acme' })).items;
    await expect(adapter.retryExtractionJob(failed?.providerJobId ?? '', { companyId: 'globex' })).rejects.toSatisfy(MemoryNotFoundError.isInstance);
    await expect(adapter.retryExtractionJob('extraction-job-unknown', { companyId: 'acme' })).rejects.toSatisfy(MemoryNotFoundError.isInstance);
    expect(environment.fake.jobs.size).toBe(1);
  });
});
