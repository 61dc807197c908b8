import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { createBruteForceVectorIndex, createInMemoryStore, createMemoryEngine, type EngineStore, type MemoryEngine } from '@memplane/engine';
import { createPostgresEngineStore } from '@memplane/engine/postgres';
import { createSqliteEngineStore } from '@memplane/engine/sqlite';
import pg from 'pg';
import { z } from 'zod';
import { embeddingModelOf, type hashEmbedder } from './engine-embedding-model';

/** The backends the engine benchmarks compare. */
export const engineBackends = ['memory', 'sqlite', 'postgres', 'pglite'] as const;
export type EngineBackend = (typeof engineBackends)[number];

/** One engine on a backend, with an engine without vectors over the same store, and what it takes on disk. */
export interface OpenedEngine {
  readonly withVectors: MemoryEngine | undefined;
  readonly lexicalOnly: MemoryEngine;
  /** What index the vectors are in, or why there are none. */
  readonly vectorIndex: string;
  diskBytes(): Promise<number | undefined>;
  /** Refreshes planner statistics (Postgres), as autovacuum would on a live server. */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/** The benchmarks' scope schema: one field, the company, so each company is one scope. */
export const benchScope = z.object({ companyId: z.string() });

function folderBytes(path: string): number {
  const entry = statSync(path);
  if (!entry.isDirectory()) return entry.size;
  return readdirSync(path).reduce((sum, name) => sum + folderBytes(join(path, name)), 0);
}

/**
 * Opens the engine on a backend. `postgres` is the machine's server (MEMPLANE_TEST_POSTGRES_URL or
 * ensure-postgres.sh), which has no pgvector here; `pglite` is Postgres in process with pgvector.
 */
export async function openEngine(backend: EngineBackend, embedder: ReturnType<typeof hashEmbedder> | undefined, postgresUrl: string | undefined): Promise<OpenedEngine> {
  const profiles = embedder === undefined ? undefined : { default: { embeddingModel: embeddingModelOf(embedder) } };
  const folder = mkdtempSync(join(tmpdir(), `memplane-engine-bench-${backend}-`));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(folder, { recursive: true, force: true })];
  const twoEngines = async (store: EngineStore, vectors: boolean, vectorIndex: string, diskBytes: () => Promise<number | undefined>, analyze: () => Promise<void> = async () => undefined): Promise<OpenedEngine> => {
    // The in-memory store has no index of its own: the engine's brute-force one is given.
    const index = store.vectorIndex ?? createBruteForceVectorIndex();
    const withVectors = vectors && profiles !== undefined ? await createMemoryEngine({ scope: benchScope, store, profiles, vectorIndex: index }) : undefined;
    const lexicalOnly = await createMemoryEngine({ scope: benchScope, store, vectorIndex: null });
    return {
      withVectors,
      lexicalOnly,
      vectorIndex,
      diskBytes,
      analyze,
      async close() {
        await store.close();
        for (const cleanup of cleanups.reverse()) await cleanup();
      },
    };
  };
  switch (backend) {
    case 'memory':
      return twoEngines(createInMemoryStore(), true, 'in-memory brute force', async () => undefined);
    case 'sqlite': {
      const path = join(folder, 'engine.db');
      return twoEngines(createSqliteEngineStore({ path }), true, 'sqlite-vec brute force', async () => folderBytes(folder));
    }
    case 'postgres': {
      if (postgresUrl === undefined) throw new TypeError('no Postgres server');
      const schema = `engine_bench_${process.pid}`;
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      cleanups.push(async () => {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      });
      const bytes = async () =>
        Number((await client.query(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, [schema])).rows[0].bytes);
      const analyze = async () => {
        for (const table of ['items', 'item_places', 'lexical_postings', 'lexical_windows', 'lexical_totals']) await client.query(`ANALYZE "${schema}".${table}`);
      };
      return twoEngines(createPostgresEngineStore({ connectionString: postgresUrl, schema }), false, 'none: PostgreSQL 15 here has no pgvector', bytes, analyze);
    }
    case 'pglite': {
      const database = await PGlite.create({ extensions: { vector } });
      cleanups.push(() => database.close());
      const dimensions = embedder?.dimensions ?? 64;
      const bytes = async () => Number((await database.query<{ bytes: string }>(`SELECT pg_database_size(current_database()) AS bytes`)).rows[0]?.bytes ?? 0);
      const analyze = async () => {
        await database.exec('ANALYZE');
      };
      return twoEngines(createPostgresEngineStore({ pglite: database, vectorIndex: { kind: 'pgvector', dimensions } }), true, 'pgvector HNSW (m 16, ef_construction 64)', bytes, analyze);
    }
  }
}
