import { MemoryError } from '@memplane/core';
import { createStoreFixtures } from '../../testing/store-fixtures';
import { describeMemoryServiceStoreSuite } from '../../testing/memory-service-store-suite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../../test-support/postgres/postgres-test-database';
import { createPostgresConnection } from './postgres-connection';
import { createPostgresMemoryServiceStore } from './postgres-memory-service-store';
import { applyPostgresMigrations, postgresMigrations } from './postgres-migrations';

describeWithPostgres('Postgres store', (url) => {
  const schemas: string[] = [];
  const schemaFor = (label: string) => {
    const schema = uniqueSchemaName(label);
    schemas.push(schema);
    return schema;
  };
  const storeIn = (schema: string) => createPostgresMemoryServiceStore({ connectionString: url, schema, maxConnections: 3 });
  afterAll(() => dropSchemas(url, schemas));

  // A second instance opens the schema of the store made last, as another process would.
  describeMemoryServiceStoreSuite('postgres', {
    createStore: () => storeIn(schemaFor('suite')),
    openSecondInstance: () => storeIn(schemas.at(-1)!),
  });

  describe('Postgres store specifics', () => {
    it('keeps everything across reopenings', async () => {
      const schema = schemaFor('reopen');
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ key: 'default' });
      const first = storeIn(schema);
      await first.migrate();
      await first.insertBinding(binding, []);
      await first.appendOperations([fixtures.operation()]);
      await first.close();
      const second = storeIn(schema);
      await second.migrate();
      expect(await second.getBindingByKey('acme', 'default')).toEqual(binding);
      expect((await second.listOperations({ companyId: 'acme' }, { limit: 5 })).items).toHaveLength(1);
      await second.close();
    });

    it('round-trips text that array literals must escape, in a batch with plain entries', async () => {
      const store = storeIn(schemaFor('escapes'));
      await store.migrate();
      const fixtures = createStoreFixtures();
      const awkward = ['say "hi"', 'back\\slash \\" end', 'line\nbreak\ttab', '{a,b}', 'NULL', '', ' padded ', 'emoji 🧠 beside "quotes"'];
      const entries = awkward.map((text, index) =>
        fixtures.operation({
          errorMessage: text,
          scope: { companyId: 'acme', issueId: text === '' ? 'empty' : text },
          details: { text, index },
          warnings: [{ type: 'other', message: text }],
        }),
      );
      const plain = fixtures.operation();
      await store.appendOperations([...entries, plain]);
      for (const entry of [...entries, plain]) {
        const stored = await store.getOperation('acme', entry.id);
        expect(stored).toEqual(entry);
      }
      await store.close();
    });

    it('applies each migration once when several processes migrate at the same moment', async () => {
      const schema = schemaFor('concurrent');
      const stores = Array.from({ length: 4 }, () => storeIn(schema));
      await Promise.all(stores.map((store) => store.migrate()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM "${schema}".memplane_schema_migrations ORDER BY version`);
      await client.end();
      expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((migration) => migration.version));
      await Promise.all(stores.map((store) => store.close()));
    });

    it('applies a later migration on top of an existing schema, and rolls back a failing one', async () => {
      const schema = schemaFor('migrations');
      const connection = createPostgresConnection({ connectionString: url, maxConnections: 2 });
      expect(await applyPostgresMigrations(connection.transaction, schema)).toBe(postgresMigrations.length);
      expect(await applyPostgresMigrations(connection.transaction, schema)).toBe(0);
      const next = { version: postgresMigrations.length + 1, name: 'add a column', sql: 'ALTER TABLE {schema}.memory_bindings ADD COLUMN note text' };
      expect(await applyPostgresMigrations(connection.transaction, schema, [...postgresMigrations, next])).toBe(1);
      const broken = { version: next.version + 1, name: 'broken', sql: 'CREATE TABLE {schema}.extra (id text); SELECT * FROM {schema}.missing_table' };
      await expect(applyPostgresMigrations(connection.transaction, schema, [...postgresMigrations, next, broken])).rejects.toBeDefined();
      const extra = await connection.query(`SELECT to_regclass($1) AS found`, [`"${schema}".extra`]);
      expect(extra[0]).toEqual({ found: null });
      await connection.close();
    });

    it('compares times as instants, whatever offset the filter is written with', async () => {
      const store = storeIn(schemaFor('times'));
      await store.migrate();
      const fixtures = createStoreFixtures();
      const early = fixtures.operation({ createdAt: '2026-01-01T00:00:00.000Z' });
      const late = fixtures.operation({ createdAt: '2026-01-01T02:00:00.000Z' });
      await store.appendOperations([early, late]);
      const page = await store.listOperations({ companyId: 'acme', from: '2026-01-01T02:00:00+01:00' }, { limit: 10 });
      expect(page.items.map((entry) => entry.id)).toEqual([late.id]);
      expect((await store.getOperation('acme', late.id))?.createdAt).toBe(late.createdAt);
      await store.close();
    });

    it('adopts a pool the caller owns and leaves it open on close', async () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const store = createPostgresMemoryServiceStore({ pool, schema: schemaFor('pool') });
      await store.migrate();
      await store.close();
      await expect(store.listBindings('acme')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await pool.end();
    });

    it('reports a duplicate log entry id as a validation error, writing none of the batch', async () => {
      const store = storeIn(schemaFor('duplicate'));
      await store.migrate();
      const fixtures = createStoreFixtures();
      const first = fixtures.operation();
      await store.appendOperations([first]);
      const again = store.appendOperations([fixtures.operation(), { ...first }]);
      await expect(again).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'id' });
      expect((await store.listOperations({ companyId: 'acme' }, { limit: 10 })).items).toHaveLength(1);
      await store.close();
    });
  });
});

describe('Postgres store without a server', () => {
  it('refuses invalid settings naming the field', () => {
    expect(() => createPostgresMemoryServiceStore({ connectionString: 'postgres://x', schema: 'Bad-Name' })).toThrow(
      expect.objectContaining({ code: 'MEMORY_VALIDATION', field: 'settings.schema' }) as Error,
    );
    expect(() => createPostgresMemoryServiceStore({})).toThrow(expect.objectContaining({ field: 'settings.connectionString' }) as Error);
    expect(() => createPostgresMemoryServiceStore({ connectionString: 'postgres://x', maxConnections: 0 })).toThrow(
      expect.objectContaining({ field: 'settings.maxConnections' }) as Error,
    );
  });

  it('turns a refused connection into a retryable typed error', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const store = createPostgresMemoryServiceStore({ connectionString: 'postgres://nobody:secret@127.0.0.1:1/none', schema: 'nowhere' });
    const failure = await store.migrate().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(MemoryError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true });
    await store.close();
  });
});
