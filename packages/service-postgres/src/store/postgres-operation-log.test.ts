import type { MemoryOperationEntry, MemoryOperationFilter } from '@memplane/service';
import { createStoreFixtures } from '@memplane/service/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkOperationPagingAgainstPlainFilter } from '../../../service/src/testing/operation-paging-property';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../test-support/postgres-test-database';
import { createPostgresMemoryServiceStore } from './postgres-memory-service-store';

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
