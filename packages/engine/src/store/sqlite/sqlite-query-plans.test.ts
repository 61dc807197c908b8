import Database from 'better-sqlite3';
import { tokenize } from '@memplane/rules';
import { describe, expect, it } from 'vitest';
import { scopeOf, testItem, testMeta } from '../sql/test-support/store-fixtures';
import { createSqliteEngineStore } from './sqlite-engine-store';

/** Runs `work` on a store over an in-memory database and returns the query plan of each statement it prepared. */
async function plansOf(work: (store: ReturnType<typeof createSqliteEngineStore>, ids: string[]) => Promise<unknown>): Promise<Array<{ sql: string; plan: string }>> {
  const database = new Database(':memory:');
  const store = createSqliteEngineStore({ database, vectorIndex: 'none' });
  await store.open({ ddlMode: 'create', meta: testMeta() });
  const rows = Array.from({ length: 60 }, (_, index) => testItem(scopeOf(index % 2 === 0 ? 'acme' : 'globex'), `deploys on tuesday number ${index}`));
  await store.insertItems(rows);
  const prepared: string[] = [];
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof database.prepare;
  await work(store, rows.filter((row) => row.scope.companyId === 'acme').map((row) => row.id));
  database.prepare = prepare;
  const plans = prepared
    .filter((sql) => /^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(sql))
    .map((sql) => {
      const parameters = (sql.match(/\?/g) ?? []).map(() => 'x');
      return { sql, plan: (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{ detail: string }>).map((row) => row.detail).join(' | ') };
    });
  await store.close();
  database.close();
  return plans;
}

describe('SQLite store: query plans (EXPLAIN QUERY PLAN)', () => {
  it('looks items up by id through the id key, never by walking a scope index', async () => {
    const plans = await plansOf(async (store, ids) => {
      await store.getItemsInRange({ companyId: ['acme'] }, ids.slice(0, 20));
      await store.getItems(scopeOf('acme'), ids.slice(0, 20));
      await store.recordItemUse(scopeOf('acme'), ids.slice(0, 10), '2026-02-01T00:00:00.000Z');
      await store.deleteItems(scopeOf('acme'), ids.slice(20, 25));
    });
    const byId = plans.filter((entry) => /FROM "items" WHERE/.test(entry.sql) || /^UPDATE "items"/.test(entry.sql));
    expect(byId.length).toBeGreaterThanOrEqual(4);
    for (const entry of byId) expect(entry.plan, entry.sql).toMatch(/sqlite_autoindex_items_1 \(id=\?\)/);
  });

  it('searches through the index of its terms: items are read by key only, and no table is scanned', async () => {
    const plans = await plansOf(async (store) => {
      const filter = { statuses: ['approved' as const], excludeMerged: true, notExpiredAt: '2026-02-01T00:00:00.000Z' };
      await store.searchLexical({ range: { companyId: ['acme'] }, terms: tokenize('tuesday deploys'), filter, windowWeight: 3, limit: 10 });
      await store.searchLexical({ range: { companyId: ['acme'], projectId: ['p1'] }, terms: tokenize('tuesday'), filter, limit: 10 });
    });
    expect(plans.length).toBeGreaterThan(3);
    for (const { sql, plan } of plans) {
      for (const step of plan.split(' | ')) {
        // A scan of a virtual table (FTS5 MATCH, json_each) is its own index lookup; a scan of a real table reads all of it.
        expect(/^SCAN /.test(step) && !/VIRTUAL TABLE/.test(step), `${sql}\n${plan}`).toBe(false);
        // The items table is only ever entered by its id: a read by scope would cost the size of the scope.
        if (/^SEARCH (items|i) /.test(step)) expect(step, sql).toMatch(/\(id=\?\)/);
      }
    }
  });
});
