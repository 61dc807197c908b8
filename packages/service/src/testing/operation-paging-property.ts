import fc from 'fast-check';
import { expect } from 'vitest';
import type { MemoryOperationEntry, MemoryOperationFilter } from '../store/memory-service-records';
import type { MemoryServiceStore } from '../store/memory-service-store';

// A property both stores' tests run (not part of the shipped store suite, which does not depend
// on fast-check): walking every page of any filter returns exactly what a plain filter over the
// appended entries returns, newest first, none skipped or repeated.

const maybe = <Value>(values: Value[]) => fc.option(fc.constantFrom(...values), { nil: undefined });

// Small value sets, so filters and their combinations match often. Some run ids are only scope
// runs, some only heartbeat runs, some both: a run filter matches one way, the other, or both at once.
const shape = fc.record({
  company: fc.constantFrom('acme', 'globex'),
  bindingId: maybe(['bnd_1', 'bnd_2']),
  agentId: maybe(['agent-1', 'agent-2']),
  issueId: maybe(['issue-1', 'issue-2']),
  projectId: maybe(['project-1', 'project-2']),
  runId: maybe(['run-1', 'run-2', 'run-3']),
  heartbeatRunId: maybe(['run-2', 'run-3', 'run-4']),
  sourceKind: maybe(['run', 'issue_comment'] as const),
  // Who called: one id under two kinds, so the kind beside the id matters.
  actor: fc.constantFrom({ kind: 'agent', id: 'planner' }, { kind: 'agent', id: 'builder' }, { kind: 'operator', id: 'planner' }, { kind: 'system', id: 'heartbeat' }),
  operation: fc.constantFrom('query', 'capture', 'profile'),
  status: fc.constantFrom('succeeded', 'failed'),
  // Minutes over six hours, in any order: the hour index of date filters sees entries out of order.
  minute: fc.integer({ min: 0, max: 359 }),
});

const filterValues = fc.record({
  bindingId: fc.constantFrom('bnd_1', 'bnd_2', 'bnd_none'),
  agentId: fc.constantFrom('agent-1', 'agent-2'),
  issueId: fc.constantFrom('issue-1', 'issue-2'),
  projectId: fc.constantFrom('project-1', 'project-2'),
  runId: fc.constantFrom('run-1', 'run-2', 'run-3', 'run-4', 'run-none'),
  sourceKind: fc.constantFrom('run', 'issue_comment', 'issue_document'),
  actorId: fc.constantFrom('planner', 'builder', 'heartbeat', 'nobody'),
  actorKind: fc.constantFrom('agent', 'operator', 'system', 'company'),
  operation: fc.constantFrom('query', 'capture', 'profile', 'forget'),
  status: fc.constantFrom('succeeded', 'failed'),
  from: fc.integer({ min: 0, max: 300 }),
  to: fc.integer({ min: 60, max: 400 }),
} as const);

type ShapedFilter = { company: string; from?: number; to?: number } & Omit<MemoryOperationFilter, 'companyId' | 'from' | 'to'>;

// A company and up to three of the filters: more would rarely match anything in a small log.
const filterShape = fc
  .tuple(fc.constantFrom('acme', 'globex'), fc.subarray(['bindingId', 'agentId', 'actorId', 'actorKind', 'issueId', 'projectId', 'runId', 'sourceKind', 'operation', 'status', 'from', 'to'] as const, { maxLength: 3 }), filterValues)
  .map(([company, keys, values]) => ({ company, ...Object.fromEntries(keys.map((key) => [key, values[key]])) }) as ShapedFilter);

const time = (minute: number) => new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();

/** Whether `entry` matches `filter`, read plainly from the entry: the reference the pages are held to. */
function matches(entry: MemoryOperationEntry, filter: MemoryOperationFilter): boolean {
  return (
    entry.companyId === filter.companyId &&
    (filter.bindingId === undefined || entry.bindingId === filter.bindingId) &&
    (filter.agentId === undefined || entry.scope.agentId === filter.agentId) &&
    (filter.actorId === undefined || entry.actor.id === filter.actorId) &&
    (filter.actorKind === undefined || entry.actor.kind === filter.actorKind) &&
    (filter.issueId === undefined || entry.scope.issueId === filter.issueId) &&
    (filter.projectId === undefined || entry.scope.projectId === filter.projectId) &&
    (filter.runId === undefined || entry.scope.runId === filter.runId || entry.heartbeatRunId === filter.runId) &&
    (filter.sourceKind === undefined || entry.source?.kind === filter.sourceKind) &&
    (filter.operation === undefined || entry.operation === filter.operation) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.from === undefined || entry.createdAt >= filter.from) &&
    (filter.to === undefined || entry.createdAt < filter.to)
  );
}

/**
 * Checks the property on `store` (migrated): `runs` random logs, each appended in random
 * batches under companies of its own, then random filters walked in pages of random size.
 */
export async function checkOperationPagingAgainstPlainFilter(store: MemoryServiceStore, runs: number): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(shape, { minLength: 0, maxLength: 60 }),
      fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }),
      fc.array(fc.tuple(filterShape, fc.integer({ min: 1, max: 7 })), { minLength: 1, maxLength: 5 }),
      async (shapes, batchSizes, walks) => {
        run += 1;
        const namespace = `paging-${run}`;
        const companyOf = (name: string) => `${namespace}-${name}`;
        const entries: MemoryOperationEntry[] = shapes.map((entry, index) => {
          const companyId = companyOf(entry.company);
          return {
            id: `op_${namespace}_${index}`,
            companyId,
            ...(entry.bindingId === undefined ? {} : { bindingId: entry.bindingId, bindingKey: `key-${entry.bindingId}` }),
            operation: entry.operation,
            status: entry.status,
            actor: entry.actor,
            scope: {
              companyId,
              ...(entry.agentId === undefined ? {} : { agentId: entry.agentId }),
              ...(entry.issueId === undefined ? {} : { issueId: entry.issueId }),
              ...(entry.projectId === undefined ? {} : { projectId: entry.projectId }),
              ...(entry.runId === undefined ? {} : { runId: entry.runId }),
            },
            ...(entry.sourceKind === undefined ? {} : { source: { kind: entry.sourceKind, companyId } }),
            ...(entry.heartbeatRunId === undefined ? {} : { heartbeatRunId: entry.heartbeatRunId }),
            usage: [],
            latencyMs: 1,
            droppedOutOfScope: 0,
            warnings: [],
            createdAt: time(entry.minute),
          };
        });
        for (let start = 0, batch = 0; start < entries.length; batch += 1) {
          const size = batchSizes[batch % batchSizes.length]!;
          await store.appendOperations(entries.slice(start, start + size));
          start += size;
        }
        for (const [shaped, limit] of walks) {
          const { company, from, to, ...columns } = shaped;
          const filter: MemoryOperationFilter = {
            ...columns,
            companyId: companyOf(company),
            ...(from === undefined ? {} : { from: time(from) }),
            ...(to === undefined ? {} : { to: time(to) }),
          };
          const seen: string[] = [];
          let after: number | undefined;
          for (let pages = 0; pages <= entries.length + 1; pages += 1) {
            const page = await store.listOperations(filter, { limit, ...(after === undefined ? {} : { after }) });
            expect(page.items.length).toBeLessThanOrEqual(limit);
            seen.push(...page.items.map((item) => item.id));
            after = page.nextAfter;
            if (after === undefined) break;
          }
          expect(after, 'the walk ended').toBeUndefined();
          expect(seen).toEqual(entries.filter((entry) => matches(entry, filter)).reverse().map((entry) => entry.id));
        }
      },
    ),
    { numRuns: runs },
  );
}
