import type { MemorySourceKind } from '@memplane/core';
import type { MemoryOperationEntry, MemoryOperationQuery } from '@memplane/service';
import type { MemoryServiceStore } from '@memplane/service/store';

/**
 * The synthetic operation log of `npm run bench server`, written through the store's own
 * `appendOperations` in large batches (one transaction, one statement per batch on Postgres):
 * the path the service's log writer takes, without one service call per entry.
 *
 * Entry i (1-based) of n: company `acme` nine times in ten (else one of 97 others), binding
 * i % 5, agent i % 50, project i % 20, issue i % 5000, run i / 50 (heartbeat run i / 40 on even
 * entries), a source on three entries in ten, one in 33 failed, times spread over 30 days in
 * order. Every filter also has a rare value, on one entry in 100,000 (about ten in the log),
 * so a page of it must reach back through the whole log: the case a scan of the company's
 * newest entries cannot answer quickly.
 */
export const operationLogShape = {
  start: Date.UTC(2026, 0, 1),
  spanMs: 30 * 24 * 3600 * 1000,
  rareEvery: 100_000,
  bindingKeys: ['binding-0', 'binding-1', 'binding-2', 'binding-3', 'binding-4'] as const,
  rareBindingKey: 'binding-rare',
};

const operations = ['query', 'query', 'query', 'capture', 'record_upsert', 'list', 'get', 'query', 'correct', 'query'] as const;
const sourceKinds: Record<number, MemorySourceKind> = { 3: 'run', 4: 'issue_comment', 8: 'manual_note' };

/** The id of each binding key, as the store holds them (the bench creates the bindings first). */
export type BindingIds = Record<string, string>;

/** Entry `i` of a log of `total` entries. */
export function syntheticOperation(i: number, total: number, bindingIds: BindingIds): MemoryOperationEntry {
  const rare = i % operationLogShape.rareEvery === 1;
  const company = i % 10 === 0 ? `company-${i % 97}` : 'acme';
  const failed = i % 33 === 0;
  const bindingKey = rare ? operationLogShape.rareBindingKey : operationLogShape.bindingKeys[i % 5]!;
  const runId = `run-${Math.floor(i / 50)}`;
  const sourceKind: MemorySourceKind | undefined = rare ? 'issue_document' : sourceKinds[i % 10];
  return {
    id: `op_${String(i).padStart(9, '0')}`,
    companyId: company,
    bindingId: bindingIds[bindingKey] ?? `bnd_${bindingKey}`,
    bindingKey,
    providerId: 'memory',
    operation: rare ? 'profile' : operations[i % 10]!,
    status: failed ? 'failed' : 'succeeded',
    ...(failed ? { errorCode: 'MEMORY_TIMEOUT', errorMessage: 'query did not finish within 5000 ms.' } : {}),
    actor: { kind: 'agent', id: `agent-${i % 50}` },
    scope: {
      companyId: company,
      agentId: rare ? 'agent-rare' : `agent-${i % 50}`,
      projectId: rare ? 'project-rare' : `project-${i % 20}`,
      issueId: rare ? 'issue-rare' : `issue-${i % 5000}`,
      runId: rare ? 'run-rare' : runId,
    },
    ...(sourceKind === undefined ? {} : { source: sourceOf(sourceKind, company, runId) }),
    ...(i % 2 === 0 ? { heartbeatRunId: `heartbeat-${Math.floor(i / 40)}` } : {}),
    attributionMode: 'included_in_run',
    usage: [{ provider: 'memory', attributionMode: 'untracked', latencyMs: 0.4 }],
    latencyMs: 0.5 + (i % 97) / 10,
    recordIds: ['mem_000001', 'mem_000002', 'mem_000003'],
    resultCount: i % 7 === 0 ? 0 : 3,
    droppedOutOfScope: 0,
    warnings: [],
    details: { topK: 10, intent: 'answer', queryCharacters: 24 },
    createdAt: new Date(operationLogShape.start + Math.floor((i * operationLogShape.spanMs) / total)).toISOString(),
  };
}

function sourceOf(kind: MemorySourceKind, companyId: string, runId: string): MemoryOperationEntry['source'] {
  if (kind === 'run') return { kind, companyId, runId };
  if (kind === 'issue_comment') return { kind, companyId, issueId: 'issue-1', commentId: 'comment-1' };
  if (kind === 'issue_document') return { kind, companyId, issueId: 'issue-1', documentKey: 'document-1' };
  return { kind, companyId };
}

/** Appends `total` entries through `store.appendOperations`, `batchSize` per call; returns the seconds it took. */
export async function seedOperationLog(store: MemoryServiceStore, total: number, bindingIds: BindingIds, batchSize = 10_000): Promise<number> {
  const started = performance.now();
  for (let first = 1; first <= total; first += batchSize) {
    const batch: MemoryOperationEntry[] = [];
    for (let i = first; i < first + batchSize && i <= total; i += 1) batch.push(syntheticOperation(i, total, bindingIds));
    await store.appendOperations(batch);
  }
  return (performance.now() - started) / 1000;
}

/** One explorer filter of the bench: a name, the query, and whether its value is common or rare. */
export interface ExplorerFilterCase {
  name: string;
  query: MemoryOperationQuery;
}

const day = (offset: number) => new Date(operationLogShape.start + offset * 24 * 3600 * 1000).toISOString();

/**
 * Every filter the inspector offers, company-scoped: each with a common value (the page fills
 * from the newest entries) and with a rare or absent value (the page must reach back through
 * the whole log), the date range alone and with the other filters.
 */
export const explorerFilterCases: ExplorerFilterCase[] = [
  { name: 'no filter (newest page)', query: {} },
  { name: 'agentId', query: { agentId: 'agent-7' } },
  { name: 'agentId, rare', query: { agentId: 'agent-rare' } },
  { name: 'issueId', query: { issueId: 'issue-1234' } },
  { name: 'issueId, absent', query: { issueId: 'issue-none' } },
  { name: 'projectId', query: { projectId: 'project-3' } },
  { name: 'projectId, rare', query: { projectId: 'project-rare' } },
  { name: 'runId', query: { runId: 'run-12345' } },
  { name: 'runId, absent', query: { runId: 'run-none' } },
  { name: 'sourceKind', query: { sourceKind: 'run' } },
  { name: 'sourceKind, rare', query: { sourceKind: 'issue_document' } },
  { name: 'operation', query: { operation: 'capture' } },
  { name: 'operation, rare', query: { operation: 'profile' } },
  { name: 'operation, absent', query: { operation: 'retention_prune' } },
  { name: 'status failed', query: { status: 'failed' } },
  { name: 'status succeeded', query: { status: 'succeeded' } },
  { name: 'bindingKey', query: { bindingKey: 'binding-3' } },
  { name: 'bindingKey, rare', query: { bindingKey: operationLogShape.rareBindingKey } },
  { name: 'from/to, one day', query: { from: day(15), to: day(16) } },
  { name: 'from only, last week', query: { from: day(23) } },
  { name: 'to only, first day', query: { to: day(1) } },
  { name: 'agentId + status failed', query: { agentId: 'agent-7', status: 'failed' } },
  { name: 'bindingKey + operation', query: { bindingKey: 'binding-3', operation: 'capture' } },
  { name: 'projectId + one day', query: { projectId: 'project-3', from: day(15), to: day(16) } },
  { name: 'status failed + one day', query: { status: 'failed', from: day(15), to: day(16) } },
  { name: 'operation rare + one day', query: { operation: 'profile', from: day(15), to: day(16) } },
  { name: 'sourceKind + operation (disjoint)', query: { sourceKind: 'run', operation: 'query' } },
  { name: 'operation + bindingKey rare', query: { operation: 'query', bindingKey: operationLogShape.rareBindingKey } },
  { name: 'status succeeded + agentId rare', query: { status: 'succeeded', agentId: 'agent-rare' } },
];
