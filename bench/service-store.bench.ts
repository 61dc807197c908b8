import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMemoryService, defaultOperationLogBatchSize } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import type { MemoryOperationFilter, MemoryServiceStore, MemoryStorePageRequest } from '@memplane/service/store';
import { createPostgresMemoryServiceStore } from '@memplane/service/postgres';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { formatNumber, median, percentile, type Benchmark, type BenchTable } from './bench-harness';
import { ensurePostgres, fillPostgresLog, fillSqliteLog, sampleOperation } from './service-store-synthetic-log';

interface StoreUnderBench {
  name: string;
  open: () => Promise<MemoryServiceStore>;
  cleanup: () => Promise<void>;
  /** Writers appending at once; more than one only where the store takes concurrent writers. */
  writers: number[];
}

async function postgresSchema(url: string, label: string): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `bench_${label}_${process.pid}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
  await drop();
  return { schema, drop };
}

const writeRounds = 5;
// 1 (unbatched), the service's default batch, and the sizes around it.
const batchSizes = [...new Set([1, 64, defaultOperationLogBatchSize, 1024])].sort((left, right) => left - right);

/** Entries per round: enough for a stable figure, few enough that unbatched Postgres stays short. */
const entriesFor = (batchSize: number) => (batchSize === 1 ? 2_000 : 32_768);

/**
 * Rounds of appends. With several stores (writers), each appends its share of the round at the
 * same time as the others, in batches, one batch after the other: as several service
 * processes do, each with its own log writer.
 */
async function measureWrites(stores: MemoryServiceStore[], batchSize: number): Promise<{ rates: number[]; cpuMicroseconds: number[] }> {
  const rates: number[] = [];
  const cpuMicroseconds: number[] = [];
  let index = 0;
  for (let round = 0; round < writeRounds + 1; round += 1) {
    const entries = Array.from({ length: entriesFor(batchSize) }, () => sampleOperation((index += 1)));
    const share = Math.ceil(entries.length / stores.length);
    const startedCpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      stores.map(async (store, writer) => {
        const mine = entries.slice(writer * share, (writer + 1) * share);
        for (let offset = 0; offset < mine.length; offset += batchSize) await store.appendOperations(mine.slice(offset, offset + batchSize));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(startedCpu);
    // The first round warms statements, caches and the JIT; it is not counted.
    if (round === 0) continue;
    rates.push(entries.length / seconds);
    cpuMicroseconds.push((used.user + used.system) / entries.length);
  }
  return { rates, cpuMicroseconds };
}

export const serviceStoreLogWritesBenchmark: Benchmark = {
  name: 'service-store-log-writes',
  description:
    'Operation-log write throughput of the memory service stores (`appendOperations`), unbatched and in the batches the service writes, on SQLite (file, WAL) and on Postgres (local server).',
  async run() {
    const directory = mkdtempSync(join(tmpdir(), 'memplane-bench-log-writes-'));
    const postgres = ensurePostgres();
    const stores: StoreUnderBench[] = [
      {
        name: 'SQLite file (WAL)',
        open: async () => createSqliteMemoryServiceStore({ filename: join(directory, 'writes.db') }),
        cleanup: async () => undefined,
        // One file has one writer at a time: a second connection would only wait for the lock.
        writers: [1],
      },
    ];
    if (postgres.url !== undefined) {
      const { schema, drop } = await postgresSchema(postgres.url, 'writes');
      stores.push({
        name: 'Postgres 15 (local, TCP)',
        open: async () => createPostgresMemoryServiceStore({ connectionString: postgres.url!, schema, maxConnections: 2 }),
        cleanup: drop,
        writers: [1, 2],
      });
    }
    const rows: string[][] = [];
    const figures: Record<string, unknown> = {};
    try {
      for (const target of stores) {
        const pool = [await target.open(), await target.open()];
        for (const store of pool) await store.migrate();
        for (const writers of target.writers) {
          for (const batchSize of batchSizes) {
            if (writers > 1 && batchSize === 1) continue;
            const { rates, cpuMicroseconds } = await measureWrites(pool.slice(0, writers), batchSize);
            rows.push([
              target.name,
              String(writers),
              batchSize === defaultOperationLogBatchSize ? `${batchSize} (default)` : String(batchSize),
              formatNumber(median(rates), 0),
              formatNumber(Math.min(...rates), 0),
              formatNumber(Math.max(...rates), 0),
              formatNumber(median(cpuMicroseconds), 1),
            ]);
            figures[`${target.name} / ${writers} writer(s) / batch ${batchSize}`] = {
              medianOpsPerSecond: median(rates),
              rates,
              cpuMicrosecondsPerEntry: cpuMicroseconds,
            };
          }
        }
        for (const store of pool) await store.close();
        await target.cleanup();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    if (postgres.url === undefined) rows.push(['Postgres', '–', '–', `skipped: ${postgres.reason ?? 'no server'}`, '–', '–', '–']);
    const table: BenchTable = {
      title: 'Operation-log writes (entries per second)',
      columns: ['store', 'writers', 'batch size', 'median', 'slowest round', 'fastest round', 'CPU of this process (µs per entry)'],
      rows,
      notes: [
        `Each round appends a fresh set of query-shaped entries (scope, usage, record ids, details) in batches of the given size, one \`appendOperations\` call per batch, after one uncounted warm-up round; ${writeRounds} rounds per row. Batch 1 rounds write ${entriesFor(1)} entries, the others ${entriesFor(64)}.`,
        `The service writes its log in batches of ${defaultOperationLogBatchSize} by default (\`operationLog.batchSize\`), or when the event-loop turn ends. Target: at least 20,000 entries per second with the default, on both stores, with one writer.`,
        'Writers: stores appending at the same time, as the log writers of that many service processes (workers) do; each writes its batches one after the other. The rate is the total. SQLite has one writer per file.',
        'SQLite: one transaction per batch, rows inserted 16 per statement. Postgres: one prepared INSERT … SELECT FROM unnest($1::text[], $2::integer[], …) per batch (one typed array per column), which also widens the hour index of date filters. The CPU column is this process only: for Postgres the server works in its own processes on the same two cores, so the wall-time rate is the figure to compare.',
      ],
    };
    return { tables: [table], figures };
  },
};

const logRows = 1_000_000;
const queryRepeats = 200;

/** The explorer's queries: what an operator filters by, first pages and a deep page. */
const explorerQueries: Array<{ name: string; filter: MemoryOperationFilter; page: MemoryStorePageRequest }> = [
  { name: 'newest page, whole company', filter: { companyId: 'acme' }, page: { limit: 50 } },
  { name: 'deep page (cursor at the middle)', filter: { companyId: 'acme' }, page: { limit: 50, after: logRows / 2 } },
  { name: 'one agent', filter: { companyId: 'acme', agentId: 'agent-7' }, page: { limit: 50 } },
  { name: 'one issue', filter: { companyId: 'acme', issueId: 'issue-1234' }, page: { limit: 50 } },
  { name: 'one run (scope or heartbeat)', filter: { companyId: 'acme', runId: 'run-12345' }, page: { limit: 50 } },
  { name: 'failed only', filter: { companyId: 'acme', status: 'failed' }, page: { limit: 50 } },
  { name: 'binding and operation', filter: { companyId: 'acme', bindingId: 'bnd_3', operation: 'capture' }, page: { limit: 50 } },
  { name: 'source kind run', filter: { companyId: 'acme', sourceKind: 'run' }, page: { limit: 50 } },
  { name: 'one day in the middle', filter: { companyId: 'acme', from: '2026-01-15T00:00:00.000Z', to: '2026-01-16T00:00:00.000Z' }, page: { limit: 50 } },
  { name: 'small company', filter: { companyId: 'company-40' }, page: { limit: 50 } },
];

const aggregateRepeats = 10;

/** The explorer's aggregates over date ranges: per-binding counts and the metrics (latency percentiles included). */
const aggregates: Array<{ name: string; run: (store: MemoryServiceStore) => Promise<unknown> }> = [
  { name: 'countOperations, one day', run: (store) => store.countOperations({ companyId: 'acme', from: '2026-01-15T00:00:00.000Z', to: '2026-01-16T00:00:00.000Z' }) },
  { name: 'operationMetrics, one day', run: (store) => store.operationMetrics({ companyId: 'acme', from: '2026-01-15T00:00:00.000Z', to: '2026-01-16T00:00:00.000Z' }) },
  { name: 'operationMetrics, one hour', run: (store) => store.operationMetrics({ companyId: 'acme', from: '2026-01-15T10:00:00.000Z', to: '2026-01-15T11:00:00.000Z' }) },
];

async function timeAggregates(store: MemoryServiceStore): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const aggregate of aggregates) {
    const samples: number[] = [];
    for (let repeat = 0; repeat < aggregateRepeats + 2; repeat += 1) {
      const started = performance.now();
      await aggregate.run(store);
      if (repeat >= 2) samples.push(performance.now() - started);
    }
    results[aggregate.name] = percentile(samples, 50);
  }
  return results;
}

type QueryTimes = Record<string, { p50: number; p95: number; items: number }>;

async function timeCalls(call: () => Promise<{ items: unknown[] }>): Promise<{ p50: number; p95: number; items: number }> {
  const samples: number[] = [];
  let items = 0;
  for (let repeat = 0; repeat < queryRepeats + 10; repeat += 1) {
    const started = performance.now();
    items = (await call()).items.length;
    if (repeat >= 10) samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), items };
}

/** The same reads through the service's explorer: authorisation, the log flush, signed cursors. Closes the store. */
async function timeThroughExplorer(store: MemoryServiceStore): Promise<QueryTimes> {
  const service = await createMemoryService({ store, cursorSecret: 'bench-cursor-secret-0123456789' });
  const explorer = service.explorer({ actor: { kind: 'company', companyId: 'acme', userId: 'operator' } });
  const first = await explorer.listOperations({ agentId: 'agent-7' });
  const results: QueryTimes = {
    'explorer: newest page': await timeCalls(() => explorer.listOperations()),
    'explorer: one agent, next page by cursor': await timeCalls(() => explorer.listOperations({ agentId: 'agent-7', cursor: first.nextCursor! })),
    'explorer: one day, newest page': await timeCalls(() => explorer.listOperations({ from: '2026-01-15T00:00:00Z', to: '2026-01-16T00:00:00Z' })),
  };
  await service.close();
  return results;
}

async function timeQueries(store: MemoryServiceStore): Promise<QueryTimes> {
  const results: QueryTimes = {};
  for (const query of explorerQueries) {
    const samples: number[] = [];
    let items = 0;
    for (let repeat = 0; repeat < queryRepeats + 10; repeat += 1) {
      const started = performance.now();
      const page = await store.listOperations(query.filter, query.page);
      const elapsed = performance.now() - started;
      items = page.items.length;
      if (repeat >= 10) samples.push(elapsed);
    }
    results[query.name] = { p50: percentile(samples, 50), p95: percentile(samples, 95), items };
  }
  return results;
}

export const serviceStoreExplorerBenchmark: Benchmark = {
  name: 'service-store-explorer',
  description: 'Explorer queries (filtered, newest-first keyset pages of 50) over a log of 1,000,000 operations, on SQLite and on Postgres.',
  async run() {
    const directory = mkdtempSync(join(tmpdir(), 'memplane-bench-explorer-'));
    const postgres = ensurePostgres();
    const measured: Record<
      string,
      { loadSeconds: number; queries: Record<string, { p50: number; p95: number; items: number }>; aggregates: Record<string, number> }
    > = {};
    try {
      const filename = join(directory, 'explorer.db');
      const sqlite = createSqliteMemoryServiceStore({ filename });
      await sqlite.migrate();
      await sqlite.close();
      let started = performance.now();
      const database = new BetterSqlite3(filename);
      database.pragma('journal_mode = WAL');
      fillSqliteLog(database, logRows);
      database.exec('ANALYZE');
      database.close();
      const sqliteLoad = (performance.now() - started) / 1000;
      const reopened = createSqliteMemoryServiceStore({ filename });
      await reopened.migrate();
      const sqliteQueries = await timeQueries(reopened);
      const sqliteAggregates = await timeAggregates(reopened);
      measured['SQLite file (WAL)'] = { loadSeconds: sqliteLoad, queries: { ...sqliteQueries, ...(await timeThroughExplorer(reopened)) }, aggregates: sqliteAggregates };

      if (postgres.url !== undefined) {
        const { schema, drop } = await postgresSchema(postgres.url, 'explorer');
        const store = createPostgresMemoryServiceStore({ connectionString: postgres.url, schema });
        await store.migrate();
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        started = performance.now();
        await fillPostgresLog(client, schema, logRows);
        const loadSeconds = (performance.now() - started) / 1000;
        const postgresQueries = await timeQueries(store);
        const postgresAggregates = await timeAggregates(store);
        measured['Postgres 15 (local, TCP)'] = { loadSeconds, queries: { ...postgresQueries, ...(await timeThroughExplorer(store)) }, aggregates: postgresAggregates };
        await client.end();
        await drop();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    const stores = Object.keys(measured);
    const names = Object.keys(measured[stores[0]!]!.queries);
    const rows = names.map((name) => [
      name,
      ...stores.flatMap((store) => {
        const figures = measured[store]!.queries[name]!;
        return [formatNumber(figures.p50, 2), formatNumber(figures.p95, 2), String(figures.items)];
      }),
    ]);
    const columns = ['query', ...stores.flatMap((store) => [`${store} p50`, `${store} p95`, 'rows'])];
    const notes = [
      `Wall time per \`listOperations\` call in ms, ${queryRepeats} calls per query after 10 warm-up calls: first the store call the explorer makes, then (rows \`explorer:\`) the service's explorer itself, with its authorisation, log flush and signed cursor.`,
      `The log holds ${logRows.toLocaleString('en-US')} operations, 90% in company acme, spread over 5 bindings, 50 agents, 5000 issues and 30 days (bench/service-store-synthetic-log.ts). Target: p50 ≤ 10 ms on both stores.`,
      `Loading the log: ${stores.map((store) => `${store} ${formatNumber(measured[store]!.loadSeconds, 1)} s`).join(', ')} (SQLite: one prepared insert in one transaction; Postgres: INSERT … SELECT FROM generate_series), indexes in place.`,
      ...(postgres.url === undefined ? [`Postgres skipped: ${postgres.reason ?? 'no server'}.`] : []),
    ];
    const aggregateTable: BenchTable = {
      title: 'Aggregates over date ranges of the same log (ms, p50)',
      columns: ['aggregate', ...stores],
      rows: aggregates.map((aggregate) => [aggregate.name, ...stores.map((store) => formatNumber(measured[store]!.aggregates[aggregate.name]!, 1))]),
      notes: [
        `${aggregateRepeats} calls each after 2 warm-up calls. One day of company acme is about 30,000 operations; the hour index narrows the range to positions, then every operation in it is read.`,
      ],
    };
    return { tables: [{ title: 'Explorer queries over 1,000,000 logged operations (ms)', columns, rows, notes }, aggregateTable], figures: measured };
  },
};
