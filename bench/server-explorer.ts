import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dataFolderSqliteFileName } from '@memplane/host';
import { createSqliteMemoryServiceStore, sqliteMigrations } from '@memplane/service/sqlite';
import type { MemoryServiceStore } from '@memplane/service/store';
import { applyPostgresMigrations, createPostgresMemoryServiceStore, postgresMigrations } from '@memplane/service/postgres';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { median } from './bench-harness';
import { explorerFilterCases, operationLogShape, seedOperationLog, type BindingIds } from './server-operation-log';
import { startBenchServer, type BenchServer } from './server-process-client';

/** Entries in the log: 1,000,000, or `npm run bench server -- --records <n>` for a quicker look. */
export const defaultExplorerLogEntries = 1_000_000;
export const explorerLogEntries = () => Number(process.env.MEMPLANE_BENCH_RECORDS ?? defaultExplorerLogEntries);
/** Calls per filter after one warm-up call; the median server time is reported. */
export const explorerRepeats = 7;

/** The store under the server: the embedded default, or Postgres. */
export type ExplorerStoreKind = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/** The figures of one store. */
export interface ExplorerFigures {
  seedSeconds: number;
  /** The migration that adds the filter indexes to the seeded log. */
  migrateSeconds: number;
  /** Per filter: median server time (ms) of the first page and of the next page by cursor, and the entries on the first page. */
  filters: Record<string, { firstMs: number; nextMs: number | null; items: number; firstSamples: number[] }>;
  /** The charts' calls: median server time (ms). */
  charts: Record<string, number>;
}

/** The schema versions that add the explorer's filter indexes (SQLite, Postgres). */
export const filterIndexMigrations = { sqlite: 5, postgres: 6 } as const;

/**
 * Brings an empty data folder's SQLite file (or a new Postgres schema) to the schema just before the filter indexes, recording the versions as
 * the stores' own `migrate()` does, so the store's next `migrate()` applies only the indexes.
 */
async function migrateBeforeFilterIndexes(store: ExplorerStoreKind, dataDirectory: string, schema: string): Promise<void> {
  if (store.kind === 'sqlite') {
    const database = new BetterSqlite3(join(dataDirectory, dataFolderSqliteFileName));
    const record = () => database.prepare('INSERT INTO memplane_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    database.transaction(() => {
      database.exec('CREATE TABLE memplane_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const migration of sqliteMigrations.filter((step) => step.version < filterIndexMigrations.sqlite)) {
        database.exec(migration.sql);
        record().run(migration.version, migration.name, new Date().toISOString());
      }
    })();
    database.close();
    return;
  }
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  try {
    await applyPostgresMigrations(
      async (work) => {
        await client.query('BEGIN');
        try {
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      },
      schema,
      postgresMigrations.filter((step) => step.version < filterIndexMigrations.postgres),
    );
  } finally {
    await client.end();
  }
}

const day = (offset: number) => new Date(operationLogShape.start + offset * 24 * 3600 * 1000).toISOString();

/** What the inspector's usage page asks for 14 days: one metrics call per day and one over the range, all at once. */
const usageDays = Array.from({ length: 14 }, (_, index) => index + 16);

async function get(server: BenchServer, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/v1/companies/acme/explorer/${path}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Median server time of `calls` runs of `run` (after one warm-up), read from the server's own timings. */
async function serverTime(server: BenchServer, calls: number, run: () => Promise<unknown>): Promise<{ medianMs: number; samples: number[] }> {
  await run();
  await server.timings();
  const samples: number[] = [];
  for (let call = 0; call < calls; call += 1) {
    await run();
    // A call of several requests at once (the usage page) takes as long as its slowest.
    samples.push(Math.max(...(await server.timings()).map((timing) => timing.ms)));
  }
  return { medianMs: median(samples), samples };
}

function searchOf(query: Record<string, unknown>): string {
  const params = new URLSearchParams({ limit: '50' });
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return params.toString();
}

/**
 * Fills a data folder's store (SQLite, or a Postgres schema) with the synthetic log through the
 * store's batch append, serves it with `memplane serve` in its own process, and times the
 * explorer's operation pages for every filter and the charts' aggregate calls.
 */
export async function measureExplorer(store: ExplorerStoreKind): Promise<ExplorerFigures> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-bench-server-log-'));
  const schema = `bench_server_${process.pid}`;
  const database = store.kind === 'postgres' ? { databaseUrl: store.url, databaseSchema: schema } : {};
  const dropSchema = async () => {
    if (store.kind !== 'postgres') return;
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
  await dropSchema();
  let server: BenchServer | undefined;
  try {
    // The log is written as a store from before the filter indexes holds it, then the store
    // migrates: the path an existing database takes, timed (and one bulk build per index is
    // faster than a million incremental inserts into it).
    await migrateBeforeFilterIndexes(store, dataDirectory, schema);
    const writer: MemoryServiceStore =
      store.kind === 'sqlite'
        ? createSqliteMemoryServiceStore({ filename: join(dataDirectory, dataFolderSqliteFileName) })
        : createPostgresMemoryServiceStore({ connectionString: store.url, schema, maxConnections: 1 });
    // The bindings the entries ran through, so the explorer finds them by key.
    const bindingIds: BindingIds = {};
    const now = new Date().toISOString();
    for (const key of [...operationLogShape.bindingKeys, operationLogShape.rareBindingKey]) {
      bindingIds[key] = `bnd_${key}`;
      await writer.insertBinding(
        {
          id: `bnd_${key}`,
          companyId: 'acme',
          key,
          providerId: 'memory',
          config: {},
          enabled: true,
          hooks: { postRunCapture: false, issueCommentCapture: false, issueDocumentCapture: false },
          capabilities: {},
          revision: 1,
          createdAt: now,
          updatedAt: now,
        },
        [],
      );
    }
    const seedSeconds = await seedOperationLog(writer, explorerLogEntries(), bindingIds);
    const migrationStarted = performance.now();
    await writer.migrate();
    const migrateSeconds = (performance.now() - migrationStarted) / 1000;
    await writer.close();
    if (store.kind === 'postgres') {
      // What autovacuum does soon after a million inserts, done now so the planner's statistics are in place.
      const client = new pg.Client({ connectionString: store.url });
      await client.connect();
      await client.query(`ANALYZE "${schema}".memory_operations`);
      await client.end();
    }

    server = await startBenchServer({ dataDirectory, ...database });
    const filters: ExplorerFigures['filters'] = {};
    for (const filterCase of explorerFilterCases) {
      const search = searchOf(filterCase.query);
      const first = await get(server, `operations?${search}`);
      const items = (first.items as unknown[]).length;
      const firstTime = await serverTime(server, explorerRepeats, () => get(server!, `operations?${search}`));
      const cursor = first.nextCursor as string | undefined;
      const nextTime =
        cursor === undefined ? undefined : await serverTime(server, explorerRepeats, () => get(server!, `operations?${search}&cursor=${encodeURIComponent(cursor)}`));
      filters[filterCase.name] = { firstMs: firstTime.medianMs, nextMs: nextTime?.medianMs ?? null, items, firstSamples: firstTime.samples };
    }
    const oneDay = `from=${day(15)}&to=${day(16)}`;
    const charts: ExplorerFigures['charts'] = {};
    const chartCalls: Array<[string, number, () => Promise<unknown>]> = [
      ['operation counts, one day', 5, () => get(server!, `operation-counts?${oneDay}`)],
      ['operation counts, whole log (30 days)', 3, () => get(server!, 'operation-counts')],
      ['metrics, one day', 5, () => get(server!, `metrics?${oneDay}`)],
      ['metrics, one day, one binding', 5, () => get(server!, `metrics?${oneDay}&bindingKey=binding-3`)],
      ['metrics, whole log (30 days)', 3, () => get(server!, 'metrics')],
      [
        'usage page, 14 days: 14 daily metrics and the range, at once',
        3,
        () =>
          Promise.all([
            ...usageDays.map((offset) => get(server!, `metrics?from=${day(offset)}&to=${day(offset + 1)}`)),
            get(server!, `metrics?from=${day(usageDays[0]!)}&to=${day(usageDays[usageDays.length - 1]! + 1)}`),
          ]),
      ],
    ];
    for (const [name, calls, run] of chartCalls) charts[name] = (await serverTime(server, calls, run)).medianMs;
    return { seedSeconds, migrateSeconds, filters, charts };
  } finally {
    await server?.close();
    await dropSchema();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
