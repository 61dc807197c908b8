import { afterEach, describe, expect, it } from 'vitest';
import { memoryCostMetric } from './paperclip-cost-mirror';
import { company, createMeteredProvider } from './test-support/paperclip-fixtures';
import { startWorker, type StartedWorker } from './test-support/worker-harness';

const meteredCompany = { bindings: [{ key: 'metered', providerId: 'metered' }], default: 'metered' };

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

describe('accounting of memory calls', () => {
  it('mirrors a directly billed call to the plugin metric with the run, and keeps it in the cost ledger', async () => {
    worker = await startWorker(
      { acme: meteredCompany },
      { providers: [createMeteredProvider([{ billingType: 'metered_api', attributionMode: 'billed_directly', costCents: 3, inputTokens: 120 }])] },
    );
    const { harness } = worker;
    harness.seed({ companies: [company('acme')] });
    const search = await harness.executeTool('memory_search', { query: 'anything' }, { companyId: 'acme', agentId: 'planner', runId: 'run-9', projectId: 'p' });
    expect(search.error).toBeUndefined();
    await worker.service.whenIdle();

    const [operation] = await worker.operations('acme', { runId: 'run-9' });
    expect(operation).toMatchObject({ attributionMode: 'billed_directly', heartbeatRunId: 'run-9' });
    expect(operation?.costEventId).toEqual(expect.any(String));
    expect(harness.metrics).toContainEqual({ name: memoryCostMetric, value: 3, tags: { companyId: 'acme', bindingKey: 'metered', providerId: 'metered', agentId: 'planner', runId: 'run-9' } });
  });

  it('writes no metric for a billed call that reports tokens but no cost: counters are never invented', async () => {
    worker = await startWorker(
      { acme: meteredCompany },
      { providers: [createMeteredProvider([{ billingType: 'metered_api', attributionMode: 'billed_directly', inputTokens: 80 }])] },
    );
    const { harness } = worker;
    harness.seed({ companies: [company('acme')] });
    await harness.executeTool('memory_search', { query: 'anything' }, { companyId: 'acme', agentId: 'planner', runId: 'run-9', projectId: 'p' });
    await worker.service.whenIdle();
    const [operation] = await worker.operations('acme', { runId: 'run-9' });
    expect(operation?.costEventId).toEqual(expect.any(String));
    expect(harness.metrics.filter((metric) => metric.name === memoryCostMetric)).toEqual([]);
  });

  it('books nothing for a call the run already pays for (included_in_run)', async () => {
    worker = await startWorker({ acme: meteredCompany }, { providers: [createMeteredProvider([{ billingType: 'subscription_included', inputTokens: 50 }])] });
    const { harness } = worker;
    harness.seed({ companies: [company('acme')] });
    await harness.executeTool('memory_search', { query: 'anything' }, { companyId: 'acme', agentId: 'planner', runId: 'run-9', projectId: 'p' });
    await worker.service.whenIdle();
    const [operation] = await worker.operations('acme', { runId: 'run-9' });
    expect(operation).toMatchObject({ attributionMode: 'included_in_run', heartbeatRunId: 'run-9' });
    expect(operation?.costEventId).toBeUndefined();
    expect(harness.metrics.filter((metric) => metric.name === memoryCostMetric)).toEqual([]);
  });
});
