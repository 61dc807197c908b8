import { describe, expect, it } from 'vitest';
import type { MemoryCostEventEntry } from '../store/memory-accounting-records';
import type { StoreUnderTest } from './memory-service-store-suite';
import { createStoreFixtures } from './store-fixtures';

const idsOf = (entries: Array<{ id: string }>) => entries.map((entry) => entry.id);

/** Cost events, finance events and their summaries. */
export function describeStoreCostRules(subject: StoreUnderTest): void {
  describe('cost and finance events', () => {
    it('round-trips cost events, leaves absent fields absent, and appends all or none', async () => {
      const fixtures = createStoreFixtures();
      const full: MemoryCostEventEntry = fixtures.costEvent({
        biller: 'openai',
        model: 'text-embedding-3-small',
        issueId: 'ACME-1',
        runId: 'run-1',
        heartbeatRunId: 'hb-1',
        cachedInputTokens: 10,
        outputTokens: 20,
        embeddingTokens: 30,
        raw: { usage: { total_tokens: 160 } },
        externalId: 'host-cost-1',
      });
      const bare = fixtures.costEvent();
      delete bare.agentId;
      delete bare.billingType;
      delete bare.inputTokens;
      delete bare.costCents;
      await subject.store.appendCostEvents([full, bare]);
      await expect(subject.store.appendCostEvents([fixtures.costEvent(), { ...full }])).rejects.toBeDefined();
      const listed = await subject.store.listCostEvents({ companyId: 'acme' }, { limit: 10 });
      expect(listed.items).toEqual([bare, full]);
      expect((await subject.store.listCostEvents({ companyId: 'globex' }, { limit: 10 })).items).toEqual([]);
    });

    it('filters cost events by operation, binding, agent and time, and pages them', async () => {
      const fixtures = createStoreFixtures();
      const a = fixtures.costEvent({ operationId: 'op_a', occurredAt: fixtures.time(1) });
      const b = fixtures.costEvent({ operationId: 'op_b', bindingId: 'bnd_b', agentId: 'builder', occurredAt: fixtures.time(2) });
      const c = fixtures.costEvent({ operationId: 'op_b', occurredAt: fixtures.time(3) });
      const foreign = fixtures.costEvent({ companyId: 'globex', operationId: 'op_a' });
      await subject.store.appendCostEvents([a, b, c, foreign]);
      const list = async (filter: object, limit = 10) => idsOf((await subject.store.listCostEvents({ companyId: 'acme', ...filter }, { limit })).items);
      expect(await list({ operationId: 'op_b' })).toEqual([c.id, b.id]);
      expect(await list({ bindingId: 'bnd_b' })).toEqual([b.id]);
      expect(await list({ agentId: 'builder' })).toEqual([b.id]);
      expect(await list({ from: fixtures.time(2), to: fixtures.time(3) })).toEqual([b.id]);
      const first = await subject.store.listCostEvents({ companyId: 'acme' }, { limit: 2 });
      const second = await subject.store.listCostEvents({ companyId: 'acme' }, { limit: 2, after: first.nextAfter! });
      expect([...idsOf(first.items), ...idsOf(second.items)]).toEqual([c.id, b.id, a.id]);
      expect(second.nextAfter).toBeUndefined();
    });

    it('round-trips and filters finance events inside the company', async () => {
      const fixtures = createStoreFixtures();
      const full = fixtures.financeEvent({
        bindingId: 'bnd_1',
        bindingKey: 'default',
        agentId: 'planner',
        kind: 'storage',
        quantity: 12.5,
        unit: 'GB-month',
        periodStart: '2026-01-01T00:00:00.000Z',
        periodEnd: '2026-02-01T00:00:00.000Z',
        estimated: true,
        costEventId: 'cost_1',
        description: 'January storage',
        metadata: { invoice: 'INV-7', lines: [1, 2] },
      });
      const bare = fixtures.financeEvent({ direction: 'credit', amountCents: 250 });
      const foreign = fixtures.financeEvent({ companyId: 'globex' });
      await subject.store.appendFinanceEvents([full, bare, foreign]);
      expect((await subject.store.listFinanceEvents({ companyId: 'acme' }, { limit: 10 })).items).toEqual([bare, full]);
      expect(idsOf((await subject.store.listFinanceEvents({ companyId: 'acme', bindingId: 'bnd_1' }, { limit: 10 })).items)).toEqual([full.id]);
      expect(idsOf((await subject.store.listFinanceEvents({ companyId: 'globex' }, { limit: 10 })).items)).toEqual([foreign.id]);
    });

    it('sums cost events per company, agent, binding, day and month, within a range', async () => {
      const fixtures = createStoreFixtures();
      const day = (date: string) => `${date}T12:00:00.000Z`;
      const cost = (overrides: Partial<MemoryCostEventEntry>) => {
        const entry = fixtures.costEvent({ ...overrides });
        if (overrides.inputTokens === undefined) delete entry.inputTokens;
        return entry;
      };
      const unattributed = cost({ bindingKey: 'zep', costCents: 2, occurredAt: day('2026-02-01') });
      delete unattributed.agentId;
      await subject.store.appendCostEvents([
        cost({ agentId: 'planner', bindingKey: 'mem0', inputTokens: 100, costCents: 0.5, occurredAt: day('2026-01-30') }),
        cost({ agentId: 'planner', bindingKey: 'mem0', inputTokens: 50, embeddingTokens: 8, costCents: 0.25, occurredAt: day('2026-01-31') }),
        cost({ agentId: 'builder', bindingKey: 'zep', outputTokens: 7, costCents: 1, occurredAt: day('2026-02-01') }),
        unattributed,
        cost({ companyId: 'globex', costCents: 100, occurredAt: day('2026-02-01') }),
      ]);
      const summarize = (grouping: Parameters<typeof subject.store.summarizeCostEvents>[1], range = {}) =>
        subject.store.summarizeCostEvents({ companyId: 'acme', ...range }, grouping);
      const totals = (group: string | undefined, events: number, cents: number, tokens: Partial<Record<'inputTokens' | 'cachedInputTokens' | 'outputTokens' | 'embeddingTokens', number>> = {}) => ({
        ...(group === undefined ? {} : { group }),
        events,
        cents,
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
        embeddingTokens: 0,
        ...tokens,
      });
      expect(await summarize('company')).toEqual([totals('acme', 4, 3.75, { inputTokens: 150, outputTokens: 7, embeddingTokens: 8 })]);
      expect(await summarize('agent')).toEqual([
        totals(undefined, 1, 2),
        totals('builder', 1, 1, { outputTokens: 7 }),
        totals('planner', 2, 0.75, { inputTokens: 150, embeddingTokens: 8 }),
      ]);
      expect((await summarize('binding')).map((row) => [row.group, row.cents])).toEqual([['mem0', 0.75], ['zep', 3]]);
      expect((await summarize('day')).map((row) => [row.group, row.events])).toEqual([['2026-01-30', 1], ['2026-01-31', 1], ['2026-02-01', 2]]);
      expect((await summarize('month')).map((row) => [row.group, row.cents])).toEqual([['2026-01', 0.75], ['2026-02', 3]]);
      expect((await summarize('month', { from: day('2026-01-31'), to: day('2026-02-01') })).map((row) => [row.group, row.cents])).toEqual([['2026-01', 0.25]]);
      expect(await subject.store.summarizeCostEvents({ companyId: 'initech' }, 'company')).toEqual([]);
    });

    it('sums finance events with credits subtracted and no tokens', async () => {
      const fixtures = createStoreFixtures();
      await subject.store.appendFinanceEvents([
        fixtures.financeEvent({ bindingKey: 'mem0', amountCents: 1900, occurredAt: '2026-01-01T00:00:00.000Z' }),
        fixtures.financeEvent({ bindingKey: 'mem0', kind: 'credit', direction: 'credit', amountCents: 400, occurredAt: '2026-01-15T00:00:00.000Z' }),
        fixtures.financeEvent({ kind: 'platform_fee', amountCents: 500, occurredAt: '2026-02-01T00:00:00.000Z' }),
        fixtures.financeEvent({ companyId: 'globex', amountCents: 9999 }),
      ]);
      const summary = await subject.store.summarizeFinanceEvents({ companyId: 'acme' }, 'binding');
      expect(summary).toEqual([
        { events: 1, cents: 500, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, embeddingTokens: 0 },
        { group: 'mem0', events: 2, cents: 1500, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, embeddingTokens: 0 },
      ]);
      expect((await subject.store.summarizeFinanceEvents({ companyId: 'acme' }, 'month')).map((row) => [row.group, row.cents])).toEqual([
        ['2026-01', 1500],
        ['2026-02', 500],
      ]);
    });
  });
}

/** Metrics from the operation log, binding usage, and retention. */
export function describeStoreUsageRules(subject: StoreUnderTest): void {
  describe('metrics from the operation log', () => {
    it('counts per binding and takes nearest-rank latency percentiles, within the company, range and binding', async () => {
      const fixtures = createStoreFixtures();
      const latencies = [5, 1, 9, 3, 7, 2, 8, 4, 10, 6];
      await subject.store.appendOperations([
        ...latencies.map((latencyMs, index) =>
          fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', latencyMs, resultCount: index % 3 === 0 ? 0 : 2 }),
        ),
        fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', operation: 'correct', latencyMs: 11 }),
        fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', operation: 'correct', status: 'failed', latencyMs: 12 }),
        fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', operation: 'query', status: 'failed', latencyMs: 13 }),
        fixtures.operation({ bindingId: 'bnd_b', bindingKey: 'b', operation: 'extraction_job_refresh', extractionFailures: 2, latencyMs: 40 }),
        fixtures.operation({ bindingId: 'bnd_b', bindingKey: 'b', operation: 'capture', extractionFailures: 1, latencyMs: 20, createdAt: fixtures.time(900) }),
        fixtures.operation({ bindingId: undefined, bindingKey: undefined, status: 'failed', latencyMs: 0.5 }),
        fixtures.operation({ bindingId: undefined, bindingKey: undefined, operation: 'retention_prune', latencyMs: 0 }),
        fixtures.operation({ companyId: 'globex', bindingId: 'bnd_a', bindingKey: 'a', latencyMs: 1000 }),
      ]);
      const metrics = await subject.store.operationMetrics({ companyId: 'acme' });
      expect(metrics).toEqual([
        {
          operations: 1, succeeded: 0, failed: 1, queries: 0, queryHits: 0, emptyQueries: 0, corrections: 0, extractionFailures: 0,
          latencyP50Ms: 0.5, latencyP95Ms: 0.5,
        },
        {
          bindingId: 'bnd_a', bindingKey: 'a', operations: 13, succeeded: 11, failed: 2, queries: 10, queryHits: 6, emptyQueries: 4,
          corrections: 1, extractionFailures: 0, latencyP50Ms: 7, latencyP95Ms: 13,
        },
        {
          bindingId: 'bnd_b', bindingKey: 'b', operations: 2, succeeded: 2, failed: 0, queries: 0, queryHits: 0, emptyQueries: 0,
          corrections: 0, extractionFailures: 3, latencyP50Ms: 20, latencyP95Ms: 40,
        },
      ]);
      const early = await subject.store.operationMetrics({ companyId: 'acme', bindingId: 'bnd_b', to: fixtures.time(100) });
      expect(early).toEqual([expect.objectContaining({ bindingId: 'bnd_b', operations: 1, extractionFailures: 2, latencyP50Ms: 40 })]);
      expect(await subject.store.operationMetrics({ companyId: 'initech' })).toEqual([]);
    });
  });

  describe('binding usage', () => {
    it('reserves within the caps only, and leaves usage unchanged when refused', async () => {
      const { store } = subject;
      const caps = { maxRecords: 3, maxBytes: 1000 };
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 2, bytes: 600 }, caps)).toEqual({ reserved: true, usage: { records: 0, bytes: 0 } });
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 2, bytes: 100 }, caps)).toEqual({ reserved: false, usage: { records: 2, bytes: 600 } });
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 1, bytes: 401 }, caps)).toEqual({ reserved: false, usage: { records: 2, bytes: 600 } });
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 1, bytes: 400 }, caps)).toMatchObject({ reserved: true });
      // Both caps are reached: a write that adds nothing still passes, one more byte does not.
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 0, bytes: 0 }, caps)).toMatchObject({ reserved: true });
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 0, bytes: 1 }, caps)).toMatchObject({ reserved: false });
      expect(await store.reserveBindingUsage('acme', 'bnd_1', { records: 1, bytes: 0 }, { maxBytes: 1000 })).toMatchObject({ reserved: true });
      expect(await store.getBindingUsage('acme', 'bnd_1')).toEqual({ records: 4, bytes: 1000 });
      expect(await store.getBindingUsage('globex', 'bnd_1')).toEqual({ records: 0, bytes: 0 });
      await store.releaseBindingUsage('acme', 'bnd_1', { records: 10, bytes: 5000 });
      expect(await store.getBindingUsage('acme', 'bnd_1')).toEqual({ records: 0, bytes: 0 });
    });

    it('admits exactly what fits when writers reserve at the same moment', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 12 }, () => subject.store.reserveBindingUsage('acme', 'bnd_race', { records: 1, bytes: 10 }, { maxRecords: 5 })),
      );
      expect(attempts.filter((attempt) => attempt.reserved)).toHaveLength(5);
      expect(await subject.store.getBindingUsage('acme', 'bnd_race')).toEqual({ records: 5, bytes: 50 });
    });

    it('settles a reservation with the accepted records, counting a replaced record once, and uncounts forgotten ones', async () => {
      const { store } = subject;
      await store.reserveBindingUsage('acme', 'bnd_1', { records: 3, bytes: 300 }, {});
      await store.settleBindingUsage('acme', 'bnd_1', { records: 3, bytes: 300 }, [
        { providerRecordId: 'r1', bytes: 100 },
        { providerRecordId: 'r2', bytes: 120 },
      ]);
      expect(await store.getBindingUsage('acme', 'bnd_1')).toEqual({ records: 2, bytes: 220 });
      await store.reserveBindingUsage('acme', 'bnd_1', { records: 1, bytes: 50 }, {});
      await store.settleBindingUsage('acme', 'bnd_1', { records: 1, bytes: 50 }, [{ providerRecordId: 'r1', bytes: 50 }]);
      expect(await store.getBindingUsage('acme', 'bnd_1')).toEqual({ records: 2, bytes: 170 });
      await store.uncountBindingRecords('globex', 'bnd_1', ['r1']);
      await store.uncountBindingRecords('acme', 'bnd_1', ['r1', 'r1', 'never-counted']);
      expect(await store.getBindingUsage('acme', 'bnd_1')).toEqual({ records: 1, bytes: 120 });
    });
  });

  describe('operation log retention', () => {
    it('prunes one company before a time and logs the prune in the same step', async () => {
      const fixtures = createStoreFixtures();
      const old = Array.from({ length: 3 }, (_, index) => fixtures.operation({ createdAt: fixtures.time(index) }));
      const recent = fixtures.operation({ createdAt: fixtures.time(100) });
      const foreignOld = fixtures.operation({ companyId: 'globex', scope: { companyId: 'globex' }, createdAt: fixtures.time(1) });
      await subject.store.appendOperations([...old, recent, foreignOld]);
      expect(await subject.store.listCompaniesWithOperationsBefore(fixtures.time(50))).toEqual(['acme', 'globex']);
      const entry = fixtures.operation({
        operation: 'retention_prune',
        bindingId: undefined,
        bindingKey: undefined,
        providerId: undefined,
        actor: { kind: 'system', id: 'retention' },
        scope: { companyId: 'acme' },
        details: { before: fixtures.time(50) },
        createdAt: fixtures.time(200),
      });
      for (const key of ['bindingId', 'bindingKey', 'providerId'] as const) delete entry[key];
      expect(await subject.store.pruneOperations('acme', fixtures.time(50), entry)).toBe(3);
      const remaining = (await subject.store.listOperations({ companyId: 'acme' }, { limit: 10 })).items;
      expect(remaining).toEqual([{ ...entry, resultCount: 3 }, recent]);
      expect(idsOf((await subject.store.listOperations({ companyId: 'globex' }, { limit: 10 })).items)).toEqual([foreignOld.id]);
      expect(await subject.store.listCompaniesWithOperationsBefore(fixtures.time(50))).toEqual(['globex']);
      const later = fixtures.operation({ createdAt: fixtures.time(300) });
      await subject.store.appendOperations([later]);
      expect(idsOf((await subject.store.listOperations({ companyId: 'acme' }, { limit: 1 })).items)).toEqual([later.id]);
    });
  });
}
