import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { MemoryOperationEntry } from '@memplane/service';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * A synthetic operation log, the same on both stores: row i (1-based) belongs to company
 * `acme` nine times in ten (else one of 97 others), to binding i % 5, agent i % 50, issue
 * i % 5000 and run i / 50 (with a heartbeat run i / 40 on even rows); one in 33 failed; the
 * times spread over 30 days in insertion order, as a real log grows.
 */
export const syntheticLog = {
  operations: ['query', 'query', 'query', 'capture', 'record_upsert', 'list', 'get', 'forget', 'correct', 'query'] as const,
  start: Date.UTC(2026, 0, 1),
  spanMs: 30 * 24 * 3600 * 1000,
};

function syntheticValues(i: number, rows: number): Record<string, unknown> {
  const failed = i % 33 === 0;
  return {
    id: `op_${String(i).padStart(8, '0')}`,
    company_id: i % 10 === 0 ? `company-${i % 97}` : 'acme',
    binding_id: `bnd_${i % 5}`,
    binding_key: `binding-${i % 5}`,
    provider_id: 'memory',
    operation: syntheticLog.operations[i % 10],
    status: failed ? 'failed' : 'succeeded',
    error_code: failed ? 'MEMORY_TIMEOUT' : null,
    error_message: failed ? 'query did not finish within 5000 ms.' : null,
    actor_kind: 'agent',
    actor_id: `agent-${i % 50}`,
    agent_id: `agent-${i % 50}`,
    project_id: `project-${i % 20}`,
    issue_id: `issue-${i % 5000}`,
    run_id: `run-${Math.floor(i / 50)}`,
    source_kind: i % 10 === 3 ? 'run' : null,
    source_json: i % 10 === 3 ? JSON.stringify({ kind: 'run', companyId: 'acme', runId: `run-${Math.floor(i / 50)}` }) : null,
    hook_kind: i % 10 === 3 ? 'post_run_capture' : null,
    heartbeat_run_id: i % 2 === 0 ? `heartbeat-${Math.floor(i / 40)}` : null,
    attribution_mode: 'included_in_run',
    usage_json: JSON.stringify([{ provider: 'memory', attributionMode: 'untracked', latencyMs: 0.4 }]),
    latency_ms: 0.5 + (i % 97) / 10,
    record_ids_json: JSON.stringify(['mem_000001', 'mem_000002', 'mem_000003']),
    result_count: i % 7 === 0 ? 0 : 3,
    dropped_out_of_scope: 0,
    warnings_json: '[]',
    details_json: JSON.stringify({ topK: 10, intent: 'answer', queryCharacters: 24 }),
    created_at: new Date(syntheticLog.start + Math.floor((i * syntheticLog.spanMs) / rows)).toISOString(),
  };
}

/** Fills the SQLite store's file with `rows` operations: one prepared insert in one transaction. */
export function fillSqliteLog(database: BetterSqlite3.Database, rows: number): void {
  const columns = Object.keys(syntheticValues(1, rows));
  const insert = database.prepare(`INSERT INTO memory_operations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  database.transaction(() => {
    for (let i = 1; i <= rows; i += 1) insert.run(Object.values(syntheticValues(i, rows)));
    // The hour index of date filters, built as the migration builds it for an existing log.
    database.exec(`INSERT INTO memory_operation_hours (company_id, hour, min_position, max_position)
      SELECT company_id, substr(created_at, 1, 13), MIN(position), MAX(position) FROM memory_operations GROUP BY 1, 2`);
  })();
}

/** Fills the Postgres store's schema with the same `rows` operations, computed by the server from generate_series. */
export async function fillPostgresLog(client: pg.Client, schema: string, rows: number): Promise<void> {
  await client.query(
    `INSERT INTO "${schema}".memory_operations (id, company_id, binding_id, binding_key, provider_id, operation, status, error_code,
       error_message, actor_kind, actor_id, agent_id, project_id, issue_id, run_id, source_kind, source_json, hook_kind, heartbeat_run_id,
       attribution_mode, usage_json, latency_ms, record_ids_json, result_count, dropped_out_of_scope, warnings_json, details_json, created_at)
     SELECT 'op_' || lpad(i::text, 8, '0'),
       CASE WHEN i % 10 = 0 THEN 'company-' || (i % 97) ELSE 'acme' END,
       'bnd_' || (i % 5), 'binding-' || (i % 5), 'memory',
       ($2::text[])[i % 10 + 1],
       CASE WHEN i % 33 = 0 THEN 'failed' ELSE 'succeeded' END,
       CASE WHEN i % 33 = 0 THEN 'MEMORY_TIMEOUT' END,
       CASE WHEN i % 33 = 0 THEN 'query did not finish within 5000 ms.' END,
       'agent', 'agent-' || (i % 50), 'agent-' || (i % 50), 'project-' || (i % 20), 'issue-' || (i % 5000), 'run-' || (i / 50),
       CASE WHEN i % 10 = 3 THEN 'run' END,
       CASE WHEN i % 10 = 3 THEN json_build_object('kind', 'run', 'companyId', 'acme', 'runId', 'run-' || (i / 50)) END,
       CASE WHEN i % 10 = 3 THEN 'post_run_capture' END,
       CASE WHEN i % 2 = 0 THEN 'heartbeat-' || (i / 40) END,
       'included_in_run',
       '[{"provider":"memory","attributionMode":"untracked","latencyMs":0.4}]'::json,
       0.5 + (i % 97) / 10.0,
       '["mem_000001","mem_000002","mem_000003"]'::json,
       CASE WHEN i % 7 = 0 THEN 0 ELSE 3 END,
       0, '[]'::json, '{"topK":10,"intent":"answer","queryCharacters":24}'::json,
       to_timestamp((${syntheticLog.start}::bigint + (i::bigint * ${syntheticLog.spanMs}::bigint) / $1::bigint) / 1000.0)
     FROM generate_series(1, $1::integer) AS i`,
    [rows, [...syntheticLog.operations]],
  );
  await client.query(`INSERT INTO "${schema}".memory_operation_hours (company_id, hour, min_position, max_position)
    SELECT company_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', min(position), max(position)
    FROM "${schema}".memory_operations GROUP BY 1, 2`);
  await client.query(`ANALYZE "${schema}".memory_operations`);
}

let idSequence = 0;

/** Ids shaped like the service's default ones: they sort by creation time, which keeps index inserts at the end. */
function sortableId(): string {
  idSequence += 1;
  return `op_${Date.now().toString(36).padStart(9, '0')}${idSequence.toString(36).padStart(4, '0')}${randomUUID().slice(0, 8)}`;
}

/** A realistic operation entry, as the service logs a query, for the write benchmark. */
export function sampleOperation(index: number): MemoryOperationEntry {
  return {
    id: sortableId(),
    companyId: 'acme',
    bindingId: 'bnd_default',
    bindingKey: 'default',
    providerId: 'memory',
    operation: 'query',
    status: 'succeeded',
    actor: { kind: 'agent', id: 'planner' },
    scope: { companyId: 'acme', agentId: 'planner', issueId: `issue-${index % 100}` },
    heartbeatRunId: `heartbeat-${Math.floor(index / 20)}`,
    attributionMode: 'included_in_run',
    usage: [{ provider: 'memory', attributionMode: 'untracked', latencyMs: 0.42 }],
    latencyMs: 0.9,
    recordIds: ['mem_000001', 'mem_000002', 'mem_000003'],
    resultCount: 3,
    droppedOutOfScope: 0,
    warnings: [],
    details: { topK: 10, intent: 'answer', queryCharacters: 24 },
    createdAt: new Date(syntheticLog.start + index).toISOString(),
  };
}

/** The connection string of the machine's Postgres, started if needed, or why there is none. */
export function ensurePostgres(): { url?: string; reason?: string } {
  const script = fileURLToPath(new URL('../packages/service/scripts/ensure-postgres.sh', import.meta.url));
  try {
    const output = execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    return { url: output.trim().split('\n').pop() };
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    return { reason: typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : String(error) };
  }
}
