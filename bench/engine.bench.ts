import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, type Benchmark } from './bench-harness';
import { benchPostgresUrl } from './engine-postgres-url';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const defaultRecords = 100_000;
/** The corpus size: `npm run bench engine -- --records <n>` sets it. */
const recordsOf = () => Number(process.env.MEMPLANE_BENCH_RECORDS ?? defaultRecords);
const kinds = ['markdown', 'memory', 'sqlite', 'postgres', 'pglite'] as const;
const labels: Record<(typeof kinds)[number], string> = {
  markdown: '@memplane/markdown (files + SQLite FTS5)',
  memory: 'engine, in-memory store',
  sqlite: 'engine, SQLite store',
  postgres: 'engine, PostgreSQL 15 server',
  pglite: 'engine, PGlite (Postgres in process) + pgvector',
};

interface Latency {
  p50: number;
  p95: number;
  meanHits: number;
}

/** What one backend's child process reports. */
interface ChildFigures {
  kind: string;
  items?: number;
  ingestSeconds: number;
  cpuSeconds: number;
  vectors?: Latency;
  lexical: Latency;
  evolveSeconds?: number;
  rssMb: number;
  heapMb: number;
  diskMb?: number;
  vectorIndex: string;
  skipped?: string;
}

function runChild(kind: string, records: number, url: string | undefined): ChildFigures {
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(benchDirectory, 'engine-child.ts'), kind, String(records)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    env: { ...process.env, ...(url === undefined ? {} : { MEMPLANE_TEST_POSTGRES_URL: url }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as ChildFigures;
}

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : formatNumber(value, 2));

export const engineBenchmark: Benchmark = {
  name: 'engine',
  get resultName() {
    return recordsOf() === defaultRecords ? undefined : `engine-${recordsOf() % 1000 === 0 ? `${recordsOf() / 1000}k` : recordsOf()}`;
  },
  get description() {
    return `@memplane/engine on each backend beside @memplane/markdown, in one run on the same synthetic corpus (${recordsOf().toLocaleString('en')} texts of 30 to 60 Zipf-distributed words in 10 scopes, one per company): memorize throughput (one conversation of 50 turns per call), retrieve latency with and without vectors, evolve of one scope, memory and disk. Each backend runs in a process of its own.`;
  },
  async run() {
    const records = recordsOf();
    const postgres = benchPostgresUrl();
    const figures: ChildFigures[] = [];
    for (const kind of kinds) {
      if (kind === 'postgres' && postgres.url === undefined) {
        figures.push({ kind, skipped: `no PostgreSQL server: ${postgres.reason}`, ingestSeconds: 0, cpuSeconds: 0, lexical: { p50: 0, p95: 0, meanHits: 0 }, rssMb: 0, heapMb: 0, vectorIndex: '' });
        continue;
      }
      process.stdout.write(`  ${kind}...\n`);
      figures.push(runChild(kind, records, postgres.url));
    }
    const ran = figures.filter((figure) => figure.skipped === undefined);
    const rowName = (figure: ChildFigures) => labels[figure.kind as (typeof kinds)[number]];
    return {
      figures: { records, scopes: 10, turnsPerMemorize: 50, embedder: 'hashing embedder, 64 dimensions', backends: figures },
      tables: [
        {
          title: `Memorize, ${records.toLocaleString('en')} texts in 10 scopes`,
          columns: ['backend', 'items written', 'seconds', 'items per second', 'CPU seconds of the process', 'vector index', 'RSS after (MB)', 'JS heap after (MB)', 'on disk (MB)'],
          rows: ran.map((figure) => [
            rowName(figure),
            String(figure.items ?? records),
            formatNumber(figure.ingestSeconds),
            formatNumber((figure.items ?? records) / figure.ingestSeconds, 0),
            formatNumber(figure.cpuSeconds),
            figure.vectorIndex,
            formatNumber(figure.rssMb, 0),
            formatNumber(figure.heapMb, 0),
            figure.diskMb === undefined ? 'n/a (in memory)' : formatNumber(figure.diskMb, 0),
          ]),
          notes: [
            'Markdown writes each call of 50 texts with upsertRecords (one record per text); the engine memorizes each call as one conversation of 50 turns through its zero-config pipeline (extraction, dedupe, categories, intention, persist), embedding each item with the same hashing embedder (64 dimensions) where the backend has a vector index.',
            'RSS and heap are of the benchmark process after the writes and a full garbage collection (the child runs with --expose-gc), so the heap is what the process retains; the PostgreSQL server\'s own memory is not in them, its tables are in "on disk". PGlite keeps its database in the process memory (WebAssembly), so its RSS includes the database.',
            ...figures.filter((figure) => figure.skipped !== undefined).map((figure) => `${rowName(figure)}: skipped (${figure.skipped}).`),
          ],
        },
        {
          title: 'Retrieve latency (ms), 200 queries of 2 or 3 rare terms, top 10, one scope each',
          columns: ['backend', 'lexical p50', 'lexical p95', 'hits per query', 'with vectors p50', 'with vectors p95', 'hits per query', 'evolve of one scope (s)'],
          rows: ran.map((figure) => [
            rowName(figure),
            ms(figure.lexical.p50),
            ms(figure.lexical.p95),
            formatNumber(figure.lexical.meanHits),
            ms(figure.vectors?.p50),
            ms(figure.vectors?.p95),
            figure.vectors === undefined ? 'n/a' : formatNumber(figure.vectors.meanHits),
            figure.evolveSeconds === undefined ? 'n/a' : formatNumber(figure.evolveSeconds, 2),
          ]),
          notes: [
            'Lexical: markdown queries its FTS5 index without an embedder; the engine retrieves with vector recall off, over the same store, neighbour windows included at every corpus size (BM25 and windows scored from the store\'s postings; runs before 2026-11-24 skipped windows above 2000 items per scope). With vectors: both fuse BM25 with the hashing embedder\'s cosine (a bag-of-words hash, not a semantic model: the figures measure cost, not quality).',
            'PostgreSQL 15 on this machine has no pgvector, so its row has no vector figures; pgvector runs in PGlite, the same SQL. Postgres planner statistics are refreshed (ANALYZE) after the writes, as autovacuum would on a live server.',
            'Evolve: one pass over one scope (a tenth of the corpus): dedupe and merge, re-cluster categories, adjust the intention. Markdown has no evolve.',
          ],
        },
      ],
    };
  },
};
