import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeMemoryServiceStoreSuite } from '../../testing/memory-service-store-suite';
import { createStoreFixtures } from '../../testing/store-fixtures';
import { createSqliteMemoryServiceStore } from './sqlite-memory-service-store';
import { applySqliteMigrations, sqliteMigrations } from './sqlite-migrations';

const directory = mkdtempSync(join(tmpdir(), 'memplane-service-store-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

describeMemoryServiceStoreSuite('sqlite in memory', { createStore: () => createSqliteMemoryServiceStore() });
// A second instance opens the file of the store made last, as another process would.
describeMemoryServiceStoreSuite('sqlite file', {
  createStore: () => createSqliteMemoryServiceStore({ filename: join(directory, `store-${(files += 1)}.db`) }),
  openSecondInstance: () => createSqliteMemoryServiceStore({ filename: join(directory, `store-${files}.db`) }),
});

describe('SQLite store specifics', () => {
  it('keeps everything in the file across reopenings', async () => {
    const filename = join(directory, 'reopen.db');
    const fixtures = createStoreFixtures();
    const binding = fixtures.binding({ key: 'default' });
    const first = createSqliteMemoryServiceStore({ filename });
    await first.migrate();
    await first.insertBinding(binding, []);
    await first.appendOperations([fixtures.operation()]);
    await first.close();
    const second = createSqliteMemoryServiceStore({ filename });
    await second.migrate();
    expect(await second.getBindingByKey('acme', 'default')).toEqual(binding);
    expect((await second.listOperations({ companyId: 'acme' }, { limit: 5 })).items).toHaveLength(1);
    await second.close();
  });

  it('caches resolution, and sees changes another connection commits to the same file', async () => {
    const filename = join(directory, 'shared.db');
    const fixtures = createStoreFixtures();
    const first = createSqliteMemoryServiceStore({ filename });
    const second = createSqliteMemoryServiceStore({ filename });
    await first.migrate();
    await second.migrate();
    const companyDefault = fixtures.binding({ key: 'default' });
    const override = fixtures.binding({ key: 'override' });
    await first.insertBinding(companyDefault, []);
    await first.insertBinding(override, []);
    await first.putTarget(fixtures.target(companyDefault), []);
    await first.putTarget(fixtures.target(override, { targetType: 'agent', targetId: 'planner' }), []);
    const cached = await second.resolveBinding('acme', 'planner');
    expect(cached?.binding.key).toBe('override');
    expect(await second.resolveBinding('acme', 'planner')).toBe(cached);
    expect(Object.isFrozen(cached?.binding.config)).toBe(true);
    await first.updateBinding({ ...override, enabled: false, revision: 2 }, 1, []);
    expect((await second.resolveBinding('acme', 'planner'))?.binding.key).toBe('default');
    await second.deleteTarget('acme', 'company', 'acme', []);
    expect(await second.resolveBinding('acme', 'planner')).toBeUndefined();
    expect(await first.resolveBinding('acme', 'planner')).toBeUndefined();
    await first.close();
    await second.close();
  });

  it('records each migration once, in version order', () => {
    const database = new BetterSqlite3(':memory:');
    expect(applySqliteMigrations(database)).toBe(sqliteMigrations.length);
    expect(applySqliteMigrations(database)).toBe(0);
    const applied = database.prepare('SELECT version FROM memplane_schema_migrations ORDER BY version').all() as Array<{ version: number }>;
    expect(applied.map((row) => row.version)).toEqual(sqliteMigrations.map((migration) => migration.version));
    database.close();
  });

  it('applies a later migration on top of an existing schema, and rolls back a failing one', () => {
    const database = new BetterSqlite3(':memory:');
    applySqliteMigrations(database);
    const next = { version: sqliteMigrations.length + 1, name: 'add a column', sql: 'ALTER TABLE memory_bindings ADD COLUMN note TEXT' };
    expect(applySqliteMigrations(database, [...sqliteMigrations, next])).toBe(1);
    const broken = { version: next.version + 1, name: 'broken', sql: 'CREATE TABLE extra (id TEXT); SELECT * FROM missing_table' };
    expect(() => applySqliteMigrations(database, [...sqliteMigrations, next, broken])).toThrow();
    expect(database.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get()).toBeUndefined();
    database.close();
  });

  it('refuses invalid settings naming the field', () => {
    expect(() => createSqliteMemoryServiceStore({ busyTimeoutMs: -1 })).toThrow(expect.objectContaining({ field: 'settings.busyTimeoutMs' }) as Error);
    expect(() => createSqliteMemoryServiceStore({ filename: join(directory, 'missing', 'deeper', 'x.db') })).toThrow(
      expect.objectContaining({ code: 'MEMORY_CONFIGURATION' }) as Error,
    );
  });
});
