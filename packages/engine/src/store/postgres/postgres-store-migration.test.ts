import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { queryTerms } from '@memplane/rules';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineStore } from '../engine-store';
import type { ServiceMetaRow } from '../engine-store-rows';
import { createInMemoryStore } from '../memory/memory-store';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, sharedPglite, uniqueSchemaName } from './test-support/postgres-test-support';

/** `pg_dump` of a schema written by @memplane/engine 0.1.0: its own term table (`item_terms`), no places, totals or windows. */
const released = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../testing/fixtures/postgres-store-written-by-0.1.0.sql'), 'utf8');
const dumpOf = (schema: string) => released.replace(/\breleased_engine\b/g, schema);

const meta = (row: Record<string, unknown>): ServiceMetaRow => ({
  scopeSchemaHash: String(row.scope_schema_hash),
  scopeFields: row.scope_fields as string[],
  boundaryFields: row.boundary_fields as string[],
  ddlVersion: Number(row.ddl_version),
  taxonomyVersion: String(row.taxonomy_version),
  providerSummary: row.provider_summary as ServiceMetaRow['providerSummary'],
  createdAt: String(row.created_at),
});

/** Opens the released schema, then checks it was indexed and ranks as a store written today. */
async function migrates(open: () => EngineStore, recorded: ServiceMetaRow, tables: () => Promise<string[]>): Promise<void> {
  expect(await tables()).toContain('item_terms');
  const store = open();
  await store.open({ ddlMode: 'create', meta: recorded });
  expect(await tables()).not.toContain('item_terms');
  const items = await store.listItems({}, { excludeMerged: false }, { limit: 1000 });
  expect(items.length).toBe(9);
  const today = createInMemoryStore();
  await today.open({ ddlMode: 'create', meta: recorded });
  await today.insertItems(items);
  let found = 0;
  for (const range of [{ org: ['acme'] }, { org: ['acme', 'globex'] }]) {
    for (const query of ['when does billing deploy', 'invoice Lisbon', 'rollback migration']) {
      const request = { range, terms: queryTerms(query), filter: {}, windowWeight: 3, limit: 10 };
      const migrated = (await store.searchLexical(request)).map((hit) => [hit.item.id, hit.score]);
      found += migrated.length;
      expect(migrated, query).toEqual((await today.searchLexical(request)).map((hit) => [hit.item.id, hit.score]));
    }
  }
  expect(found).toBeGreaterThan(15);
  await store.close();
}

describe('a Postgres schema written by the 0.1.0 release, on PGlite', () => {
  it('is indexed on open and then ranks as a store written today', async () => {
    const pglite = await sharedPglite();
    const schema = uniqueSchemaName('released');
    await pglite.exec(dumpOf(schema));
    const [row] = (await pglite.query<Record<string, unknown>>(`SELECT * FROM "${schema}".service_meta`)).rows;
    const tables = async () => (await pglite.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schema])).rows.map((entry) => entry.table_name);
    await migrates(() => createPostgresEngineStore({ pglite, schema }), meta(row as Record<string, unknown>), tables);
  });
});

describeWithPostgres('a Postgres schema written by the 0.1.0 release, on PostgreSQL 15', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  it('is indexed on open and then ranks as a store written today', async () => {
    const schema = uniqueSchemaName('released');
    schemas.push(schema);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(dumpOf(schema));
      const [row] = (await client.query(`SELECT * FROM "${schema}".service_meta`)).rows;
      const tables = async () => (await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schema])).rows.map((entry: { table_name: string }) => entry.table_name);
      await migrates(() => createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 }), meta(row), tables);
    } finally {
      await client.end();
    }
  });
});
