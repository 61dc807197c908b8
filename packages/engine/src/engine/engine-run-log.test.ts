import { MemoryConflictError } from '@memplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineStore } from '../store/engine-store';
import type { RunLogRow } from '../store/engine-store-rows';
import { createInMemoryStore } from '../store/memory/memory-store';
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, sharedPglite, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { testMeta } from '../store/sql/test-support/store-fixtures';
import { createSqliteEngineStore } from '../store/sqlite/sqlite-engine-store';

/**
 * The run log is written by a flow's caller and, on the queued runner, by the worker that finished
 * the run (its caller may be gone): every store keeps one row per run id, the first written.
 */
const run = (id: string, overrides: Partial<RunLogRow> = {}): RunLogRow => ({
  id,
  flow: 'memorize',
  status: 'ok',
  pipelineRevision: 2,
  scopeRange: { companyId: ['acme'] },
  inputSummary: 'conversation: 2 messages',
  outputSummary: '3 items, 0 reinforced',
  steps: [{ stepId: 'persist_index', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 4, status: 'ok', detail: undefined }],
  llmUsage: [],
  failures: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  ...overrides,
});

function itKeepsOneRowPerRunId(name: string, open: () => Promise<EngineStore>): void {
  it(`${name}: a second, third or concurrent appendRun of a run id keeps the first row and adds none`, async () => {
    const store = await open();
    const first = run('run_1');
    await store.appendRun(first);
    await store.appendRun(run('run_1', { status: 'failed', outputSummary: 'failed', failures: ['MEMORY_API_CALL: late copy'], finishedAt: '2026-01-01T00:00:09.000Z' }));
    await Promise.all(Array.from({ length: 6 }, (_, index) => store.appendRun(run(index % 2 === 0 ? 'run_2' : 'run_1', { startedAt: `2026-01-02T00:00:0${index}.000Z` }))));
    const rows = await store.listRuns({ limit: 10 });
    expect(rows.map((row) => row.id).sort()).toEqual(['run_1', 'run_2']);
    expect(rows.find((row) => row.id === 'run_1')).toEqual({ ...first, steps: [{ stepId: 'persist_index', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 4, status: 'ok' }] });
    await store.close();
  });
}

describe('run log idempotent on the run id', () => {
  itKeepsOneRowPerRunId('in-memory store', async () => {
    const store = createInMemoryStore();
    await store.open({ ddlMode: 'create', meta: testMeta() });
    return store;
  });

  itKeepsOneRowPerRunId('SQLite store', async () => {
    const store = createSqliteEngineStore({ path: ':memory:' });
    await store.open({ ddlMode: 'create', meta: testMeta() });
    return store;
  });

  itKeepsOneRowPerRunId('Postgres store on PGlite', async () => {
    const store = createPostgresEngineStore({ pglite: await sharedPglite(), schema: uniqueSchemaName('runlog') });
    await store.open({ ddlMode: 'create', meta: testMeta() });
    return store;
  });

  it('in-memory store: a row appended in a transaction that rolled back does not make the same run id look written', async () => {
    const store = createInMemoryStore();
    await store.open({ ddlMode: 'create', meta: testMeta() });
    await store.appendRun(run('run_0'));
    const failing = store.transaction(async (tx) => {
      await tx.appendRun(run('run_1'));
      throw new MemoryConflictError({ message: 'lost' });
    });
    await expect(failing).rejects.toSatisfy((error: unknown) => MemoryConflictError.isInstance(error));
    await store.appendRun(run('run_1', { outputSummary: 'written after the rollback' }));
    await store.appendRun(run('run_1', { outputSummary: 'a late copy' }));
    expect((await store.listRuns({ limit: 10 })).map((row) => [row.id, row.outputSummary])).toEqual([
      ['run_1', 'written after the rollback'],
      ['run_0', '3 items, 0 reinforced'],
    ]);
  });
});

afterAll(async () => (await sharedPglite()).close());

describeWithPostgres('run log idempotent on the run id, on PostgreSQL 15', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  itKeepsOneRowPerRunId('Postgres store', async () => {
    const schema = uniqueSchemaName('runlog');
    schemas.push(schema);
    const store = createPostgresEngineStore({ connectionString: url, schema, maxConnections: 4 });
    await store.open({ ddlMode: 'create', meta: testMeta() });
    return store;
  });
});
