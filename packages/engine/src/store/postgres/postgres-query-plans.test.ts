import pg from 'pg';
import { tokenize } from '@memplane/rules';
import { afterAll, expect, it } from 'vitest';
import { scopeOf, testItem, testMeta } from '../sql/test-support/store-fixtures';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from './test-support/postgres-test-support';

/** A pool whose clients record every statement they run, with its parameters. */
function recordingPool(url: string, statements: Array<{ text: string; values: unknown[] }>): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    (client as unknown as { query: (text: string, values?: unknown[]) => Promise<pg.QueryResult> }).query = (text, values) => {
      statements.push({ text, values: values ?? [] });
      return query(text, values);
    };
    return client;
  };
  return pool;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describeWithPostgres('Postgres store: query plans of a lexical search (EXPLAIN)', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('reads postings, totals, windows and rows through their keys, never a scan of a table', async () => {
    const schema = uniqueSchemaName('plans');
    schemas.push(schema);
    const statements: Array<{ text: string; values: unknown[] }> = [];
    const pool = recordingPool(url, statements);
    const store = createPostgresEngineStore({ pool, schema });
    await store.open({ ddlMode: 'create', meta: testMeta() });
    await store.insertItems(Array.from({ length: 300 }, (_, index) => testItem(scopeOf(index % 3 === 0 ? 'acme' : 'globex', `p${index % 2}`), `deploys on tuesday number ${index} ${index % 7 === 0 ? 'billing' : ''}`)));
    statements.length = 0;
    const filter = { statuses: ['approved' as const], excludeMerged: true };
    await store.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('billing deploys'), filter, windowWeight: 3, limit: 10 });
    await store.searchLexical({ range: { companyId: ['acme', 'globex'], projectId: ['p1'] }, terms: tokenize('tuesday'), filter, limit: 10 });
    const reads = statements.filter((statement) => /^\s*SELECT/i.test(statement.text) && /FROM/i.test(statement.text));
    expect(reads.length).toBeGreaterThan(5);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // With sequential scans priced out, a scan left in a plan means no index can serve the statement.
      await client.query('SET enable_seqscan = off');
      for (const { text, values } of reads) {
        const [row] = (await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values)).rows as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
        const nodes = nodesOf((row?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan);
        for (const node of nodes) {
          expect(node['Node Type'], `${text}\n${JSON.stringify(nodes.map((entry) => [entry['Node Type'], entry['Relation Name'], entry['Index Name']]))}`).not.toBe('Seq Scan');
          // The items table is entered by its id alone: a read by scope would cost the size of the scope.
          if (node['Relation Name'] === 'items') expect(node['Index Name'], text).toBe('items_pkey');
        }
      }
    } finally {
      await client.end();
      await store.close();
      await pool.end();
    }
  });
});
