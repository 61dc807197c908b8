import { describe, expect, it } from 'vitest';
import type { MemoryServiceStore } from '../store/memory-service-store';
import type { MemoryOperationEntry, MemoryOperationFilter, MemoryStorePage, MemoryStorePageRequest } from '../store/memory-service-records';
import type { StoreUnderTest } from './memory-service-store-suite';
import { createStoreFixtures } from './store-fixtures';

async function walk<Entry>(read: (page: MemoryStorePageRequest) => Promise<MemoryStorePage<Entry>>, limit: number): Promise<Entry[]> {
  const seen: Entry[] = [];
  let after: number | undefined;
  do {
    const page = await read({ limit, ...(after === undefined ? {} : { after }) });
    seen.push(...page.items);
    after = page.nextAfter;
  } while (after !== undefined);
  return seen;
}

const idsOf = (entries: Array<{ id: string }>) => entries.map((entry) => entry.id);

async function matching(store: MemoryServiceStore, filter: MemoryOperationFilter): Promise<string[]> {
  return idsOf((await store.listOperations(filter, { limit: 100 })).items);
}

/** The operation log, hook deliveries and extraction jobs. */
export function describeStoreLogRules(subject: StoreUnderTest): void {
  describe('operation log', () => {
    it('round-trips every field, and leaves absent ones absent', async () => {
      const fixtures = createStoreFixtures();
      const full: MemoryOperationEntry = fixtures.operation({
        operation: 'capture',
        status: 'failed',
        errorCode: 'MEMORY_RATE_LIMITED',
        errorMessage: 'slow down',
        scope: { companyId: 'acme', agentId: 'planner', projectId: 'p', issueId: 'i', runId: 'r', subjectId: 's', sessionKey: 'k', namespace: 'n' },
        source: { kind: 'issue_comment', companyId: 'acme', issueId: 'i', commentId: 'c' },
        hookKind: 'issue_comment_capture',
        hookId: 'hook_1',
        heartbeatRunId: 'hb_1',
        costEventId: 'cost_1',
        attributionMode: 'billed_directly',
        usage: [{ provider: 'mem0', inputTokens: 12, costCents: 0.4, raw: { tokens: 12 } }],
        recordIds: ['a', 'b'],
        resultCount: 2,
        droppedOutOfScope: 1,
        extractionFailures: 2,
        warnings: [{ type: 'scope_violation', providerRecordId: 'x', details: 'foreign' }],
        details: { topK: 5 },
      });
      const bare = fixtures.operation({ bindingId: undefined, bindingKey: undefined, providerId: undefined, scope: { companyId: 'acme' } });
      delete bare.bindingId;
      delete bare.bindingKey;
      delete bare.providerId;
      await subject.store.appendOperations([full, bare]);
      expect(await subject.store.getOperation('acme', full.id)).toEqual(full);
      expect(await subject.store.getOperation('acme', bare.id)).toEqual(bare);
      expect(await subject.store.getOperation('globex', full.id)).toBeUndefined();
    });

    it('appends a batch all or none', async () => {
      const fixtures = createStoreFixtures();
      const first = fixtures.operation();
      await subject.store.appendOperations([first]);
      await expect(subject.store.appendOperations([fixtures.operation(), { ...first }])).rejects.toBeDefined();
      const large = [...Array.from({ length: 20 }, () => fixtures.operation()), { ...first }];
      await expect(subject.store.appendOperations(large)).rejects.toBeDefined();
      expect(idsOf((await subject.store.listOperations({ companyId: 'acme' }, { limit: 50 })).items)).toEqual([first.id]);
      const accepted = Array.from({ length: 37 }, () => fixtures.operation());
      await subject.store.appendOperations(accepted);
      expect(await subject.store.getOperation('acme', accepted[36]!.id)).toEqual(accepted[36]);
      expect((await subject.store.listOperations({ companyId: 'acme' }, { limit: 50 })).items).toHaveLength(38);
    });

    it('filters by binding, agent, issue, project, run, source kind, operation, status and date range, never across companies', async () => {
      const fixtures = createStoreFixtures();
      const a = fixtures.operation({ scope: { companyId: 'acme', agentId: 'planner', issueId: 'issue-1' }, createdAt: fixtures.time(1) });
      const b = fixtures.operation({
        operation: 'capture',
        bindingId: 'bnd_other',
        scope: { companyId: 'acme', projectId: 'project-1', runId: 'run-1' },
        source: { kind: 'run', companyId: 'acme', runId: 'run-1' },
        createdAt: fixtures.time(2),
      });
      const c = fixtures.operation({ status: 'failed', heartbeatRunId: 'run-2', scope: { companyId: 'acme' }, createdAt: fixtures.time(3) });
      const foreign = fixtures.operation({ companyId: 'globex', scope: { companyId: 'globex', agentId: 'planner' } });
      await subject.store.appendOperations([a, b, c, foreign]);
      const { store } = subject;
      expect(await matching(store, { companyId: 'acme' })).toEqual([c.id, b.id, a.id]);
      expect(await matching(store, { companyId: 'acme', agentId: 'planner' })).toEqual([a.id]);
      expect(await matching(store, { companyId: 'acme', issueId: 'issue-1' })).toEqual([a.id]);
      expect(await matching(store, { companyId: 'acme', projectId: 'project-1' })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'acme', runId: 'run-1' })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'acme', runId: 'run-2' })).toEqual([c.id]);
      expect(await matching(store, { companyId: 'acme', sourceKind: 'run' })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'acme', operation: 'capture' })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'acme', status: 'failed' })).toEqual([c.id]);
      expect(await matching(store, { companyId: 'acme', bindingId: 'bnd_other' })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'acme', from: fixtures.time(2), to: fixtures.time(3) })).toEqual([b.id]);
      expect(await matching(store, { companyId: 'globex' })).toEqual([foreign.id]);
    });

    it('filters by who called (actor id, and kind beside it), whatever the scope names', async () => {
      const fixtures = createStoreFixtures();
      // The agent's company-wide search and a call refused to it name no agent in their scope.
      const search = fixtures.operation({ actor: { kind: 'agent', id: 'planner' }, scope: { companyId: 'acme' }, createdAt: fixtures.time(1) });
      const refused = fixtures.operation({
        actor: { kind: 'agent', id: 'planner' },
        status: 'failed',
        errorCode: 'MEMORY_SCOPE_VIOLATION',
        scope: { companyId: 'acme' },
        createdAt: fixtures.time(2),
      });
      // Another caller acting for the planner's scope, and an operator who shares its id.
      const forPlanner = fixtures.operation({ actor: { kind: 'system', id: 'heartbeat' }, scope: { companyId: 'acme', agentId: 'planner' }, createdAt: fixtures.time(3) });
      const sameId = fixtures.operation({ actor: { kind: 'operator', id: 'planner' }, scope: { companyId: 'acme' }, createdAt: fixtures.time(4) });
      const foreign = fixtures.operation({ companyId: 'globex', actor: { kind: 'agent', id: 'planner' }, scope: { companyId: 'globex' }, createdAt: fixtures.time(5) });
      await subject.store.appendOperations([search, refused, forPlanner, sameId, foreign]);
      const { store } = subject;
      expect(await matching(store, { companyId: 'acme', actorId: 'planner' })).toEqual([sameId.id, refused.id, search.id]);
      expect(await matching(store, { companyId: 'acme', actorId: 'planner', actorKind: 'agent' })).toEqual([refused.id, search.id]);
      expect(await matching(store, { companyId: 'acme', actorId: 'planner', actorKind: 'agent', status: 'failed' })).toEqual([refused.id]);
      expect(await matching(store, { companyId: 'acme', actorId: 'planner', actorKind: 'company' })).toEqual([]);
      expect(await matching(store, { companyId: 'acme', actorId: 'heartbeat' })).toEqual([forPlanner.id]);
      expect(await matching(store, { companyId: 'acme', agentId: 'planner' })).toEqual([forPlanner.id]);
      expect(await matching(store, { companyId: 'globex', actorId: 'planner' })).toEqual([foreign.id]);
      const walked = idsOf(await walk((page) => store.listOperations({ companyId: 'acme', actorId: 'planner' }, page), 1));
      expect(walked).toEqual([sameId.id, refused.id, search.id]);
    });

    it('filters date ranges exactly when entries arrive out of time order, across hours and pages', async () => {
      const fixtures = createStoreFixtures();
      const hour = (n: number, minute: number) => new Date(Date.UTC(2026, 0, 1, n, minute)).toISOString();
      // Appended in this order; the times jump back and forth across ten hours.
      const entries = Array.from({ length: 30 }, (_, index) => fixtures.operation({ createdAt: hour((index * 7) % 10, index) }));
      for (let start = 0; start < entries.length; start += 10) await subject.store.appendOperations(entries.slice(start, start + 10));
      const expected = (from?: string, to?: string) =>
        idsOf(entries.filter((entry) => (from === undefined || entry.createdAt >= from) && (to === undefined || entry.createdAt < to)).reverse());
      for (const [from, to] of [
        [hour(3, 0), hour(5, 0)],
        [hour(2, 30), hour(2, 45)],
        [hour(9, 0), undefined],
        [undefined, hour(1, 0)],
        [hour(4, 10), hour(8, 59)],
        [hour(11, 0), undefined],
      ] as Array<[string | undefined, string | undefined]>) {
        const filter = { companyId: 'acme', ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
        expect(idsOf(await walk((page) => subject.store.listOperations(filter, page), 4))).toEqual(expected(from, to));
      }
    });

    it('pages newest first and never skips or repeats entries that exist for the whole walk', async () => {
      const fixtures = createStoreFixtures();
      const initial = Array.from({ length: 25 }, () => fixtures.operation());
      await subject.store.appendOperations(initial);
      const seen: MemoryOperationEntry[] = [];
      let after: number | undefined;
      do {
        const page = await subject.store.listOperations({ companyId: 'acme' }, { limit: 4, ...(after === undefined ? {} : { after }) });
        seen.push(...page.items);
        after = page.nextAfter;
        // Entries written during the walk are newer than its position, so they never disturb it.
        await subject.store.appendOperations([fixtures.operation()]);
      } while (after !== undefined);
      expect(idsOf(seen)).toEqual(idsOf([...initial].reverse()));
    });

    it('counts per binding and operation, within a date range', async () => {
      const fixtures = createStoreFixtures();
      await subject.store.appendOperations([
        fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', operation: 'query' }),
        fixtures.operation({ bindingId: 'bnd_a', bindingKey: 'a', operation: 'query', status: 'failed', droppedOutOfScope: 2 }),
        fixtures.operation({ bindingId: 'bnd_b', bindingKey: 'b', operation: 'capture', createdAt: fixtures.time(500) }),
        fixtures.operation({ companyId: 'globex', bindingId: 'bnd_a', bindingKey: 'a' }),
      ]);
      expect(await subject.store.countOperations({ companyId: 'acme' })).toEqual([
        { bindingId: 'bnd_a', bindingKey: 'a', operation: 'query', succeeded: 1, failed: 1, droppedOutOfScope: 2 },
        { bindingId: 'bnd_b', bindingKey: 'b', operation: 'capture', succeeded: 1, failed: 0, droppedOutOfScope: 0 },
      ]);
      expect(await subject.store.countOperations({ companyId: 'acme', from: fixtures.time(100) })).toHaveLength(1);
    });
  });

  describe('hook deliveries', () => {
    it('round-trips and filters deliveries inside the company', async () => {
      const fixtures = createStoreFixtures();
      const ok = fixtures.delivery({ operationId: 'op_1', bindingId: 'bnd_1' });
      const slow = fixtures.delivery({ hookId: 'hook_2', hookKind: 'pre_run_hydrate', receiver: 'indexer', status: 'timed_out', attempts: 1, error: 'too slow' });
      const foreign = fixtures.delivery({ companyId: 'globex' });
      await subject.store.appendHookDeliveries([ok, slow, foreign]);
      const list = (filter: object) => subject.store.listHookDeliveries({ companyId: 'acme', ...filter }, { limit: 10 });
      expect((await list({})).items).toEqual([slow, ok]);
      expect(idsOf((await list({ status: 'timed_out' })).items)).toEqual([slow.id]);
      expect(idsOf((await list({ hookKind: 'post_run_capture' })).items)).toEqual([ok.id]);
      expect(idsOf((await list({ hookId: 'hook_2' })).items)).toEqual([slow.id]);
      expect(idsOf(await walk((page) => subject.store.listHookDeliveries({ companyId: 'acme' }, page), 1))).toEqual([slow.id, ok.id]);
    });
  });

  describe('extraction jobs', () => {
    it('inserts, then updates the mutable fields while keeping the first id, origin and creation time', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding();
      const queued = fixtures.job(binding, { operationId: 'op_1', hookKind: 'post_run_capture', source: { kind: 'run', companyId: 'acme', runId: 'r' } });
      await subject.store.upsertExtractionJobs([queued]);
      const failed = { ...queued, id: 'job_other', operationId: 'op_2', status: 'failed' as const, error: 'boom', finishedAt: fixtures.time(40), updatedAt: fixtures.time(40) };
      await subject.store.upsertExtractionJobs([failed]);
      expect(await subject.store.getExtractionJob('acme', queued.id)).toEqual({ ...failed, id: queued.id, operationId: 'op_1' });
      expect(await subject.store.getExtractionJob('acme', 'job_other')).toBeUndefined();
      const { error: _error, finishedAt: _finished, ...retried } = { ...failed, id: queued.id, status: 'queued' as const, retryCount: 1 };
      await subject.store.upsertExtractionJobs([retried]);
      expect(await subject.store.getExtractionJob('acme', queued.id)).toEqual({ ...retried, operationId: 'op_1' });
    });

    it('filters by status, binding and hook, and never reads or overwrites across companies', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding();
      const other = fixtures.binding();
      const queued = fixtures.job(binding, { hookKind: 'post_run_capture' });
      const running = fixtures.job(binding, { status: 'running' });
      const done = fixtures.job(other, { status: 'succeeded' });
      await subject.store.upsertExtractionJobs([queued, running, done]);
      const foreignClash = { ...queued, id: 'job_foreign', companyId: 'globex', status: 'failed' as const };
      await subject.store.upsertExtractionJobs([foreignClash]).catch(() => undefined);
      const list = (filter: object) => subject.store.listExtractionJobs({ companyId: 'acme', ...filter }, { limit: 10 });
      expect(idsOf((await list({})).items)).toEqual([done.id, running.id, queued.id]);
      expect(idsOf((await list({ statuses: ['queued', 'running'] })).items)).toEqual([running.id, queued.id]);
      expect(idsOf((await list({ bindingId: other.id })).items)).toEqual([done.id]);
      expect(idsOf((await list({ hookKind: 'post_run_capture' })).items)).toEqual([queued.id]);
      expect(await subject.store.getExtractionJob('acme', queued.id)).toEqual(queued);
      expect(await subject.store.getExtractionJob('globex', queued.id)).toBeUndefined();
    });
  });
}
