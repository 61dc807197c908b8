import { MemoryConflictError, type JsonValue } from '@memplane/core';
import type { EngineStoreSession } from '../engine-store';
import type { PipelineRevisionRow, RunLogRow } from '../engine-store-rows';
import type { SqlConnection } from './sql-connection';
import { readServiceMeta } from './sql-service-meta';
import { type SqlStoreContext, withConflict } from './sql-store-context';

type ServiceMethods = Pick<EngineStoreSession, 'appendPipelineRevision' | 'listPipelineRevisions' | 'appendRun' | 'listRuns' | 'getServiceMeta'>;

/** Service-wide rows: pipeline revisions (§8.4), the run log (§10.2) and the service meta (§5.2). */
export function sqlServiceMethods(connection: SqlConnection, context: SqlStoreContext): ServiceMethods {
  const { dialect } = context;
  const revisions = dialect.table('pipeline_revisions');
  const runs = dialect.table('run_log');

  return {
    async appendPipelineRevision(revision: PipelineRevisionRow) {
      const [latest] = await connection.all<{ latest: number | string | null }>(`SELECT max(revision) AS latest FROM ${revisions}`);
      const expected = Number(latest?.latest ?? 0) + 1;
      if (revision.revision !== expected) {
        throw new MemoryConflictError({ message: `Pipeline revision ${revision.revision} cannot follow revision ${expected - 1}: another change was accepted meanwhile.` });
      }
      // Two writers that both read the same latest revision: the primary key lets one through.
      await withConflict(context, `Pipeline revision ${revision.revision} was written by another change meanwhile.`, () =>
        connection.run(`INSERT INTO ${revisions} (revision, change, definition, definition_hash, created_at) VALUES (?, ?, ?, ?, ?)`, [
          revision.revision,
          revision.change,
          dialect.writeJson(revision.definition),
          revision.definitionHash,
          revision.createdAt,
        ]),
      );
    },

    async listPipelineRevisions() {
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${revisions} ORDER BY revision`);
      return rows.map((row) => ({
        revision: Number(row.revision),
        change: String(row.change),
        definition: dialect.readJson<JsonValue>(row.definition),
        definitionHash: String(row.definition_hash),
        createdAt: String(row.created_at),
      }));
    },

    async appendRun(run: RunLogRow) {
      // Idempotent on the run id: the caller and a queued runner's worker may both write a run's log.
      await connection.run(
        `INSERT INTO ${runs} (id, flow, status, pipeline_revision, scope_range, input_summary, output_summary, steps, llm_usage, failures, started_at, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [
          run.id,
          run.flow,
          run.status,
          run.pipelineRevision,
          dialect.writeJson(run.scopeRange),
          run.inputSummary,
          run.outputSummary,
          dialect.writeJson(run.steps),
          dialect.writeJson(run.llmUsage),
          dialect.writeJson(run.failures),
          run.startedAt,
          run.finishedAt,
        ],
      );
    },

    async listRuns(options) {
      const flow = options.flow === undefined ? '' : 'WHERE flow = ?';
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${runs} ${flow} ORDER BY started_at DESC, id DESC LIMIT ?`, [
        ...(options.flow === undefined ? [] : [options.flow]),
        options.limit,
      ]);
      return rows.map(
        (row): RunLogRow => ({
          id: String(row.id),
          flow: row.flow as RunLogRow['flow'],
          status: row.status as RunLogRow['status'],
          pipelineRevision: Number(row.pipeline_revision),
          scopeRange: dialect.readJson(row.scope_range),
          inputSummary: String(row.input_summary),
          outputSummary: String(row.output_summary),
          steps: dialect.readJson(row.steps),
          llmUsage: dialect.readJson(row.llm_usage),
          failures: dialect.readJson(row.failures),
          startedAt: String(row.started_at),
          finishedAt: String(row.finished_at),
        }),
      );
    },

    getServiceMeta: () => readServiceMeta(connection, dialect),
  };
}
