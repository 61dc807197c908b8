import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { EngineStore } from '@memplane/engine';
import { createPostgresEngineStore } from '@memplane/engine/postgres';
import { createSqliteEngineStore } from '@memplane/engine/sqlite';
import pg from 'pg';

/** The stores the LoCoMo benchmark runs the engine on. */
export type LocomoBackend = 'memory' | 'sqlite' | 'postgres' | 'pglite';

/** A store for one LoCoMo variant (undefined: the engine's default in-memory store), and its cleanup. */
export async function openEngineStore(backend: LocomoBackend): Promise<{ store: EngineStore | undefined; close(): Promise<void> }> {
  switch (backend) {
    case 'memory':
      return { store: undefined, close: async () => undefined };
    case 'sqlite': {
      const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-locomo-'));
      const store = createSqliteEngineStore({ path: join(folder, 'engine.db') });
      return {
        store,
        async close() {
          await store.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    }
    case 'postgres': {
      const url = process.env.MEMPLANE_TEST_POSTGRES_URL;
      if (url === undefined) throw new TypeError('no PostgreSQL server (MEMPLANE_TEST_POSTGRES_URL unset)');
      const schema = `engine_locomo_${process.pid}`;
      const store = createPostgresEngineStore({ connectionString: url, schema });
      return {
        store,
        async close() {
          await store.close();
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        },
      };
    }
    case 'pglite': {
      const database = await PGlite.create({ extensions: { vector } });
      const store = createPostgresEngineStore({ pglite: database, vectorIndex: { kind: 'pgvector', dimensions: 64 } });
      return {
        store,
        async close() {
          await store.close();
          await database.close();
        },
      };
    }
  }
}
