import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../../engine/create-memory-engine';
import { crashConversation } from '../../test-support/crash-conversation';
import type { EngineStore } from '../engine-store';
import { createPostgresEngineStore } from '../postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../postgres/test-support/postgres-test-support';
import { createSqliteEngineStore } from '../sqlite/sqlite-engine-store';
import { startChildProcess } from '../../test-support/child-processes';
import { scopeOf, testMeta } from './test-support/store-fixtures';

const writer = new URL('../../test-support/crash-writer-process.ts', import.meta.url);
const memorizer = new URL('../../test-support/crash-memorize-process.ts', import.meta.url);
const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-crash-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Kills the writer with SIGKILL once it is inside its transaction, then checks that nothing of it is visible. */
async function killMidTransactionAndCheck(environment: Record<string, string>, reopen: () => EngineStore): Promise<void> {
  const child = startChildProcess(writer, environment);
  const { resourceId } = await child.message<{ type: 'mid-transaction'; resourceId: string }>('mid-transaction');
  child.child.kill('SIGKILL');
  expect(await child.exited).toBe('SIGKILL');
  const store = reopen();
  await store.open({ ddlMode: 'validate', meta: testMeta() });
  const scope = scopeOf('acme');
  expect(await store.getResource(scope, resourceId)).toBeUndefined();
  expect(await store.findResourceByHash(scope, 'crash-hash', 1)).toBeUndefined();
  expect(await store.getSegments(scope, resourceId)).toEqual([]);
  expect(await store.countItems({ companyId: ['acme'] }, { excludeMerged: false })).toBe(0);
  expect(await store.searchLexical({ range: { companyId: ['acme'] }, terms: ['lisbon'], filter: {}, limit: 10 })).toEqual([]);
  await store.close();
}

/** Kills an engine inside its memorize persist transaction, then memorizes the same conversation again on a fresh engine. */
async function killMemorizeAndCheck(environment: Record<string, string>, reopen: () => EngineStore): Promise<void> {
  const child = startChildProcess(memorizer, environment);
  const { items } = await child.message<{ type: 'mid-transaction'; items: number }>('mid-transaction');
  expect(items).toBeGreaterThan(0);
  child.child.kill('SIGKILL');
  expect(await child.exited).toBe('SIGKILL');
  const store = reopen();
  const engine = await createMemoryEngine({ scope: z.object({ companyId: z.string(), agentId: z.string() }), store, ddlMode: 'validate' });
  const scope = { companyId: 'acme', agentId: 'planner' };
  expect(await store.countItems({ companyId: ['acme'] }, { excludeMerged: false })).toBe(0);
  expect(await store.listCategories({ companyId: ['acme'] })).toEqual([]);
  // Nothing half-written makes the same content look memorized already.
  const again = await engine.memorize(scope, crashConversation);
  expect(again.duplicate).toBe(false);
  expect(again.itemIds.length).toBe(items);
  expect(await store.countItems({ companyId: ['acme'] }, { excludeMerged: false })).toBe(items);
  await store.close();
}

it('SQLite: an engine killed inside its memorize transaction leaves no resource, item or category, and the same memorize then succeeds', async () => {
  const path = join(folder, 'crash-engine.db');
  await killMemorizeAndCheck({ MEMPLANE_TEST_BACKEND: 'sqlite', MEMPLANE_TEST_SQLITE_PATH: path }, () => createSqliteEngineStore({ path }));
});

it('SQLite: a writer killed in the middle of a memorize transaction leaves no half resource or item', async () => {
  const path = join(folder, 'crash.db');
  await killMidTransactionAndCheck({ MEMPLANE_TEST_BACKEND: 'sqlite', MEMPLANE_TEST_SQLITE_PATH: path }, () => createSqliteEngineStore({ path }));
});

describeWithPostgres('Postgres crash', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  it('PostgreSQL: a writer killed in the middle of a memorize transaction leaves no half resource or item', async () => {
    const schema = uniqueSchemaName('crash');
    schemas.push(schema);
    await killMidTransactionAndCheck({ MEMPLANE_TEST_BACKEND: 'postgres', MEMPLANE_TEST_POSTGRES_URL: url, MEMPLANE_TEST_SCHEMA: schema }, () =>
      createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 }),
    );
  });
  it('PostgreSQL: an engine killed inside its memorize transaction leaves nothing, and the same memorize then succeeds', async () => {
    const schema = uniqueSchemaName('crash_engine');
    schemas.push(schema);
    await killMemorizeAndCheck({ MEMPLANE_TEST_BACKEND: 'postgres', MEMPLANE_TEST_POSTGRES_URL: url, MEMPLANE_TEST_SCHEMA: schema }, () =>
      createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 }),
    );
  });
});
