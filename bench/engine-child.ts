/**
 * One backend of `npm run bench engine`, in a process of its own so its memory figures are its
 * own: memorizes the synthetic corpus (one conversation of 50 turns per call, one scope per
 * company), times retrieve with and without vectors, times evolve of one scope, and prints its
 * figures as one JSON line. Argument: `markdown` or an engine backend, then the record count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMarkdownAdapter } from '@memplane/markdown';
import { percentile } from './bench-harness';
import { engineBackends, type EngineBackend, openEngine } from './engine-backends';
import { hashEmbedder } from './engine-embedding-model';
import { syntheticCorpus, syntheticQueries, type SyntheticRecord } from './markdown-synthetic-corpus';

const [kind = 'memory', countText = '1000'] = process.argv.slice(2);
const count = Number(countText);
const companies = 10;
const turnsPerCall = 50;
const { records, words } = syntheticCorpus(count, companies);
const queries = syntheticQueries(words, 200);
const embedder = hashEmbedder(64);

/** Calls of `turnsPerCall` records of one company, companies interleaved. */
function calls(): SyntheticRecord[][] {
  const byCompany = new Map<string, SyntheticRecord[]>();
  for (const record of records) {
    const group = byCompany.get(record.companyId);
    if (group === undefined) byCompany.set(record.companyId, [record]);
    else group.push(record);
  }
  const result: SyntheticRecord[][] = [];
  for (const group of byCompany.values()) for (let start = 0; start < group.length; start += turnsPerCall) result.push(group.slice(start, start + turnsPerCall));
  return result;
}

async function timed(run: (query: string, companyId: string) => Promise<number>): Promise<{ p50: number; p95: number; meanHits: number }> {
  const latencies: number[] = [];
  let hits = 0;
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    hits += await run(query, `company-${index % companies}`);
    latencies.push(performance.now() - started);
  }
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), meanHits: hits / queries.length };
}

const megabytes = (bytes: number) => bytes / 1024 / 1024;

/**
 * Memory after a full collection (the parent runs this process with --expose-gc), so the heap
 * figure is what the store retains, not garbage the collector has not reached yet.
 */
function settledMemory(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

async function main(): Promise<Record<string, unknown>> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  if (kind === 'markdown') {
    const root = mkdtempSync(join(tmpdir(), 'memplane-engine-bench-markdown-'));
    try {
      const withVectors = createMarkdownAdapter({ root, embedder });
      for (const group of calls()) {
        await withVectors.upsertRecords({ bindingKey: 'bench', scope: { companyId: group[0]!.companyId }, records: group.map((record) => ({ text: record.text })) });
      }
      const ingestSeconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const memory = settledMemory();
      const vectors = await timed(async (query, companyId) => (await withVectors.query({ bindingKey: 'bench', scope: { companyId }, query, topK: 10 })).snippets.length);
      withVectors.close();
      const lexicalOnly = createMarkdownAdapter({ root });
      const lexical = await timed(async (query, companyId) => (await lexicalOnly.query({ bindingKey: 'bench', scope: { companyId }, query, topK: 10 })).snippets.length);
      lexicalOnly.close();
      const { statSync, readdirSync } = await import('node:fs');
      const bytes = (path: string): number => (statSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + bytes(join(path, name)), 0) : statSync(path).size);
      return { ingestSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, vectors, lexical, evolveSeconds: undefined, rssMb: megabytes(memory.rss), heapMb: megabytes(memory.heapUsed), diskMb: megabytes(bytes(root)), vectorIndex: 'sqlite-vec (exact)' };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  if (!engineBackends.includes(kind as EngineBackend)) throw new TypeError(`unknown backend ${kind}`);
  const opened = await openEngine(kind as EngineBackend, embedder, process.env.MEMPLANE_TEST_POSTGRES_URL);
  try {
    const writer = opened.withVectors ?? opened.lexicalOnly;
    let items = 0;
    for (const group of calls()) {
      const result = await writer.memorize({ companyId: group[0]!.companyId }, { type: 'conversation', messages: group.map((record) => ({ role: 'user', content: record.text })) });
      items += result.itemIds.length;
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const memory = settledMemory();
    // Fresh statistics, as autovacuum would have them on a live server.
    await opened.analyze();
    const vectors = opened.withVectors === undefined ? undefined : await timed(async (query, companyId) => (await opened.withVectors!.retrieve({ companyId }, query, { topK: 10 })).items.length);
    const lexical = await timed(async (query, companyId) => (await opened.lexicalOnly.retrieve({ companyId }, query, { topK: 10 })).items.length);
    const evolveStarted = performance.now();
    await writer.evolve({ companyId: 'company-0' });
    const evolveSeconds = (performance.now() - evolveStarted) / 1000;
    const diskBytes = await opened.diskBytes();
    return { items, ingestSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, vectors, lexical, evolveSeconds, rssMb: megabytes(memory.rss), heapMb: megabytes(memory.heapUsed), diskMb: diskBytes === undefined ? undefined : megabytes(diskBytes), vectorIndex: opened.vectorIndex };
  } finally {
    await opened.close();
  }
}

process.stdout.write(`${JSON.stringify({ kind, count, ...(await main()) })}\n`);
