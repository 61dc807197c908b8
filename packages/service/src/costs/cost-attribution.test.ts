import { defineMemoryAdapter, type MemoryUsage, type MemoryProviderDefinition } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import type { MemoryCostEvent } from '../runtime/usage-attribution';

/** A provider whose every call reports the usage it is given, the way a metered hosted provider does. */
function meteredProvider(usage: MemoryUsage[]): MemoryProviderDefinition {
  const adapter = defineMemoryAdapter({
    key: 'metered',
    capabilities: {},
    capture: async () => ({ usage }),
    upsertRecords: async (request) => ({
      records: request.records.map((_, index) => ({ providerKey: 'metered', providerRecordId: `m-${index}` })),
      usage,
    }),
    query: async () => ({ snippets: [], usage }),
    list: async () => ({ items: [] }),
    get: async () => null,
    forget: async () => ({}),
  });
  return { providerId: 'metered', description: 'Reports metered usage (test only).', capabilities: {}, create: () => adapter };
}

const embedding: MemoryUsage = {
  provider: 'metered',
  biller: 'openai',
  model: 'text-embedding-3-small',
  billingType: 'metered_api',
  attributionMode: 'billed_directly',
  embeddingTokens: 42,
  costCents: 0.25,
  raw: { usage: { total_tokens: 42 } },
};
const extraction: MemoryUsage = { provider: 'metered', attributionMode: 'billed_directly', inputTokens: 300, outputTokens: 40, costCents: 1.5 };

describe('cost attribution', () => {
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(usage: MemoryUsage[], settings: Parameters<typeof createTestService>[0] = {}): Promise<MemoryService> {
    const created = await createTestService({ providers: [meteredProvider(usage)], ...settings });
    cleanUp = created.cleanUp;
    await bindCompanyDefault(created.service, actors.acmeAdmin, 'default', 'metered');
    return created.service;
  }

  it('links work inside a heartbeat run to the run and records no cost event for it', async () => {
    const service = await start([{ provider: 'metered', inputTokens: 10, costCents: 0.1 }]);
    const inRun = await service.runtime(as(actors.planner, { heartbeatRunId: 'run-1' })).query({ query: 'deploys', scope: { issueId: 'ACME-1' } });
    const entry = await service.explorer(as(actors.acmeAdmin)).getOperation(inRun.operationId);
    expect(entry).toMatchObject({ attributionMode: 'included_in_run', heartbeatRunId: 'run-1' });
    expect(entry?.costEventId).toBeUndefined();
    expect((await service.costs(as(actors.acmeAdmin)).listCostEvents()).items).toEqual([]);
  });

  it('records one cost event per billable usage entry of a direct metered call, linked to the operation, agent, company, issue and run', async () => {
    const mirrored: MemoryCostEvent[] = [];
    const service = await start([embedding, extraction, { provider: 'metered', attributionMode: 'billed_directly', latencyMs: 3 }], {
      recordCostEvent: (event) => {
        mirrored.push(event);
        return 'host-ledger-7';
      },
    });
    const written = await service
      .runtime(as(actors.planner))
      .upsertRecords({ scope: { agentId: 'planner', issueId: 'ACME-9', runId: 'run-9' }, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    const ledger = service.costs(as(actors.acmeAdmin));
    const events = (await ledger.listCostEvents({ operationId: written.operationId })).items.reverse();
    const link = { companyId: 'acme', operationId: written.operationId, bindingKey: 'default', agentId: 'planner', issueId: 'ACME-9', runId: 'run-9', externalId: 'host-ledger-7' };
    expect(events).toEqual([
      {
        ...link,
        id: expect.stringMatching(/^cost_/),
        bindingId: expect.stringMatching(/^bnd_/),
        provider: 'metered',
        biller: 'openai',
        model: 'text-embedding-3-small',
        billingType: 'metered_api',
        embeddingTokens: 42,
        costCents: 0.25,
        raw: { usage: { total_tokens: 42 } },
        occurredAt: expect.any(String),
      },
      {
        ...link,
        id: expect.stringMatching(/^cost_/),
        bindingId: expect.stringMatching(/^bnd_/),
        provider: 'metered',
        inputTokens: 300,
        outputTokens: 40,
        costCents: 1.5,
        occurredAt: expect.any(String),
      },
    ]);
    const entry = await service.explorer(as(actors.acmeAdmin)).getOperation(written.operationId);
    expect(entry).toMatchObject({ attributionMode: 'billed_directly', costEventId: events[0]?.id });
    expect(mirrored).toEqual([expect.objectContaining({ costEventId: events[0]?.id, operationId: written.operationId, usage: [expect.objectContaining(embedding), expect.objectContaining(extraction)] })]);
  });

  it('records nothing for billed usage without counters, or when the host already recorded the cost', async () => {
    const service = await start([{ provider: 'metered', attributionMode: 'billed_directly' }]);
    await service.runtime(as(actors.planner)).query({ query: 'anything' });
    const given = await service.runtime(as(actors.planner, { costEventId: 'host-cost-3', attributionMode: 'billed_directly' })).query({ query: 'x' });
    expect((await service.costs(as(actors.acmeAdmin)).listCostEvents()).items).toEqual([]);
    expect(await service.explorer(as(actors.acmeAdmin)).getOperation(given.operationId)).toMatchObject({ costEventId: 'host-cost-3' });
  });

  it('books flat costs as finance events, never as operations, and keeps agents out of the ledger', async () => {
    const service = await start([]);
    const ledger = service.costs(as(actors.acmeAdmin));
    const booked = await ledger.recordFinanceEvent({
      kind: 'subscription',
      biller: 'mem0',
      amountCents: 1900,
      bindingKey: 'default',
      periodStart: '2026-11-01T00:00:00Z',
      periodEnd: '2026-12-01T00:00:00Z',
      description: 'mem0 Pro, November',
    });
    expect(booked).toMatchObject({
      id: expect.stringMatching(/^fin_/),
      companyId: 'acme',
      bindingKey: 'default',
      direction: 'debit',
      estimated: false,
      recordedBy: 'company:admin',
      periodStart: '2026-11-01T00:00:00.000Z',
    });
    expect((await ledger.listFinanceEvents()).items).toEqual([booked]);
    expect((await service.explorer(as(actors.acmeAdmin)).listOperations()).items).toEqual([]);
    await expect(service.costs(as(actors.planner)).recordFinanceEvent({ kind: 'storage', biller: 'x', amountCents: 1 })).rejects.toBeInstanceOf(
      MemoryAccessDeniedError,
    );
    await expect(service.costs(as(actors.planner)).listCostEvents()).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    await expect(ledger.recordFinanceEvent({ kind: 'storage', biller: 'x', amountCents: -5 })).rejects.toMatchObject({ field: 'input.amountCents' });
    await expect(ledger.recordFinanceEvent({ kind: 'storage', biller: 'x', amountCents: 5, bindingKey: 'missing' })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
    });
    expect((await service.costs(as(actors.globexAdmin)).listFinanceEvents()).items).toEqual([]);
  });

  it('summarizes metered and flat costs by company, agent, binding and month', async () => {
    const service = await start([extraction]);
    await service.runtime(as(actors.planner)).query({ query: 'a' });
    await service.runtime(as(actors.builder)).query({ query: 'b' });
    await service.runtime(as(actors.builder)).query({ query: 'c' });
    const ledger = service.costs(as(actors.acmeAdmin));
    await ledger.recordFinanceEvent({ kind: 'subscription', biller: 'mem0', amountCents: 1900, bindingKey: 'default', occurredAt: '2026-11-01T00:00:00Z' });
    await ledger.recordFinanceEvent({ kind: 'credit', direction: 'credit', biller: 'mem0', amountCents: 400, occurredAt: '2026-12-02T00:00:00Z' });
    const byCompany = await ledger.summarize({ groupBy: 'company' });
    expect(byCompany.groups).toEqual([
      {
        group: 'acme',
        meteredCents: 4.5,
        flatCents: 1500,
        totalCents: 1504.5,
        costEvents: 3,
        financeEvents: 2,
        inputTokens: 900,
        cachedInputTokens: 0,
        outputTokens: 120,
        embeddingTokens: 0,
      },
    ]);
    expect(byCompany.totals.totalCents).toBe(1504.5);
    const byAgent = await ledger.summarize({ groupBy: 'agent' });
    expect(byAgent.groups.map((group) => [group.group, group.meteredCents, group.flatCents])).toEqual([
      [undefined, 0, 1500],
      ['builder', 3, 0],
      ['planner', 1.5, 0],
    ]);
    const byBinding = await ledger.summarize({ groupBy: 'binding' });
    expect(byBinding.groups.map((group) => [group.group, group.totalCents])).toEqual([
      [undefined, -400],
      ['default', 1904.5],
    ]);
    const byMonth = await ledger.summarize({ groupBy: 'month', from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' });
    expect(byMonth.groups.map((group) => [group.group, group.totalCents])).toEqual([['2026-11', 1904.5]]);
    await expect(ledger.summarize({ groupBy: 'week' as never })).rejects.toMatchObject({ field: 'groupBy' });
  });
});
