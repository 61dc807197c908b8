import type { MemoryOperationEntry, MemoryOperationFilter } from '../memory-service-records';
import { createStoreFixtures } from '../../testing/store-fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkOperationPagingAgainstPlainFilter } from '../../testing/operation-paging-property';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../../test-support/postgres/postgres-test-database';
import { createPostgresConnection } from './postgres-connection';
import { createPostgresMemoryServiceStore } from './postgres-memory-service-store';
import { applyPostgresMigrations, postgresMigrations } from './postgres-migrations';

/**
 * A log where every filter has a common value and a rare one (on one entry in 1,000): the rare
 * value is the case where a page read newest first through the company's log would reach back
 * through all of it, so the planner, with the statistics ANALYZE gives it, reads the filter's index.
 */
function sampleLog(size: number): MemoryOperationEntry[] {
  const fixtures = createStoreFixtures();
  return Array.from({ length: size }, (_, index) => {
    const rare = index % 1000 === 7;
    return fixtures.operation({
      bindingId: rare ? 'bnd_rare' : `bnd_${index % 3}`,
      operation: rare ? 'profile' : index % 2 === 0 ? 'query' : 'capture',
      status: rare ? 'failed' : 'succeeded',
      // Who called: four agents, and now and then one that rarely acts (its scope names no agent).
      actor: rare ? { kind: 'agent', id: 'actor-rare' } : { kind: 'agent', id: `agent-${(index + 1) % 4}` },
      scope: {
        companyId: 'acme',
        agentId: rare ? 'agent-rare' : `agent-${index % 4}`,
        projectId: rare ? 'project-rare' : `project-${index % 3}`,
        issueId: rare ? 'issue-rare' : `issue-${index % 20}`,
        runId: rare ? 'run-rare' : `run-${Math.floor(index / 10)}`,
      },
      ...(index % 5 === 0 || rare ? { source: { kind: rare ? 'issue_document' : 'run', companyId: 'acme' } } : {}),
      ...(rare ? { heartbeatRunId: 'heartbeat-rare' } : {}),
      createdAt: fixtures.time(index * 10),
    });
  });
}

const company = { companyId: 'acme' } as const;

/** Each explorer filter with a rare value, and the index (and column) its page must read. */
const filterCases: Array<{ name: string; filter: MemoryOperationFilter; indexes: string[] }> = [
  { name: 'company alone', filter: company, indexes: ['memory_operations_pkey'] },
  { name: 'agent', filter: { ...company, agentId: 'agent-rare' }, indexes: ['memory_operations_agent'] },
  { name: 'actor', filter: { ...company, actorId: 'actor-rare' }, indexes: ['memory_operations_actor'] },
  { name: 'actor and its kind', filter: { ...company, actorId: 'actor-rare', actorKind: 'agent' }, indexes: ['memory_operations_actor'] },
  { name: 'issue', filter: { ...company, issueId: 'issue-rare' }, indexes: ['memory_operations_issue'] },
  { name: 'project', filter: { ...company, projectId: 'project-rare' }, indexes: ['memory_operations_project'] },
  { name: 'run (scope run or heartbeat run)', filter: { ...company, runId: 'run-rare' }, indexes: ['memory_operations_run', 'memory_operations_heartbeat'] },
  { name: 'source kind', filter: { ...company, sourceKind: 'issue_document' }, indexes: ['memory_operations_source_kind'] },
  { name: 'operation', filter: { ...company, operation: 'profile' }, indexes: ['memory_operations_operation'] },
  { name: 'status', filter: { ...company, status: 'failed' }, indexes: ['memory_operations_status'] },
  { name: 'binding', filter: { ...company, bindingId: 'bnd_rare' }, indexes: ['memory_operations_binding'] },
  { name: 'date range', filter: { ...company, from: '2026-01-01T05:00:00.000Z', to: '2026-01-01T06:00:00.000Z' }, indexes: ['memory_operations_pkey'] },
];

describeWithPostgres('Postgres operation log', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  describe('every explorer filter reads an index, newest first', () => {
    const schema = uniqueSchemaName('operation_plans');
    schemas.push(schema);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const store = createPostgresMemoryServiceStore({ pool, schema });
    beforeAll(async () => {
      await store.migrate();
      const entries = sampleLog(6000);
      for (let start = 0; start < entries.length; start += 1000) await store.appendOperations(entries.slice(start, start + 1000));
      // What autovacuum does on a live log: the planner's statistics (all 6,000 rows are sampled).
      await pool.query(`ANALYZE "${schema}".memory_operations`);
    });
    afterAll(async () => {
      await store.close();
      await pool.end();
    });

    for (const { name, filter, indexes } of filterCases) {
      it(`${name}: the first page reads ${indexes.join(' and ')}`, async () => {
        const query = vi.spyOn(pool, 'query');
        let statements: Array<{ text: string; values: unknown[] }>;
        try {
          expect((await store.listOperations(filter, { limit: 3 })).items.length).toBeGreaterThan(0);
          // pg's query takes text and values, or a config with a statement name.
          const calls = query.mock.calls as unknown as Array<[string | { text: string; values?: unknown[] }, unknown[] | undefined]>;
          statements = calls
            .map(([config, values]) =>
              typeof config === 'string' ? { text: config, values: (values ?? []) as unknown[] } : { text: config.text, values: (config.values ?? []) as unknown[] },
            )
            .filter(({ text }) => /memory_operations\b/.test(text) && /ORDER BY position DESC/.test(text));
        } finally {
          query.mockRestore();
        }
        expect(statements).toHaveLength(1);
        const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statements[0]!.text}`, statements[0]!.values);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        for (const index of indexes) expect(plan, plan).toMatch(new RegExp(`(?:using|on) ${index} `));
        expect(plan, plan).not.toContain('Seq Scan');
        // A run's entries are few: the two index reads are merged and sorted. Every other filter
        // reads its index backward, already in page order.
        if (indexes.length === 1) {
          expect(plan, plan).toContain('Index Scan Backward');
          expect(plan, plan).not.toMatch(/\bSort\b/);
        }
      });
    }
  });

  describe('an existing log gets the actor index when it migrates', () => {
    it('indexes entries written under the schema before it, and a page by actor reads the index', async () => {
      const schema = uniqueSchemaName('operation_actor_migration');
      schemas.push(schema);
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const store = createPostgresMemoryServiceStore({ pool, schema });
      try {
        // The schema before the actor index, as an earlier release left it.
        const earlier = createPostgresConnection({ connectionString: url, maxConnections: 1 });
        await applyPostgresMigrations(
          earlier.transaction,
          schema,
          postgresMigrations.filter((migration) => migration.version <= 6),
        );
        await earlier.close();
        const indexesOf = async () =>
          (await pool.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [schema, 'memory_operations'])).rows.map(
            (row) => row.indexname,
          );
        expect(await indexesOf()).not.toContain('memory_operations_actor');
        // The log as the schema before held it: an agent's company-wide searches and refusals among many others.
        const entries = sampleLog(3000);
        for (let start = 0; start < entries.length; start += 1000) await store.appendOperations(entries.slice(start, start + 1000));
        await store.migrate();
        expect(await indexesOf()).toContain('memory_operations_actor');
        await pool.query(`ANALYZE "${schema}".memory_operations`);
        const expected = entries.filter((entry) => entry.actor.id === 'actor-rare').reverse().map((entry) => entry.id);
        expect(expected.length).toBeGreaterThan(1);
        expect((await store.listOperations({ ...company, actorId: 'actor-rare' }, { limit: 50 })).items.map((entry) => entry.id)).toEqual(expected);
        const query = vi.spyOn(pool, 'query');
        try {
          await store.listOperations({ ...company, actorId: 'actor-rare' }, { limit: 3 });
          const calls = query.mock.calls as unknown as Array<[string | { text: string; values?: unknown[] }, unknown[] | undefined]>;
          const [text, values] = calls
            .map(([config, values]) => (typeof config === 'string' ? [config, values ?? []] : [config.text, config.values ?? []]) as [string, unknown[]])
            .find(([text]) => /ORDER BY position DESC/.test(text))!;
          query.mockRestore();
          const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan, plan).toMatch(/(?:using|on) memory_operations_actor /);
          expect(plan, plan).not.toContain('Seq Scan');
        } finally {
          query.mockRestore();
        }
      } finally {
        await store.close();
        await pool.end();
      }
    });
  });

  describe('pages', () => {
    it('walk every filter and combination exactly as a plain filter over the appended entries (fast-check)', async () => {
      const schema = uniqueSchemaName('operation_paging');
      schemas.push(schema);
      const store = createPostgresMemoryServiceStore({ connectionString: url, schema, maxConnections: 2 });
      await store.migrate();
      try {
        await checkOperationPagingAgainstPlainFilter(store, 40);
      } finally {
        await store.close();
      }
    }, 120_000);
  });
});
