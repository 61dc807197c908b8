import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { create, insertMultiple, load, save, search, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import { createMarkdownAdapter } from '@memplane/markdown';
import type { SyntheticRecord } from './markdown-synthetic-corpus';

/** Latencies of a query run, in milliseconds. */
export interface QueryTimings {
  p50: number;
  p95: number;
  meanHits: number;
}

function percentileOf(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Times queries (after 10 warm-up queries), each scoped to one company in turn. */
export async function timeQueries(queries: string[], run: (query: string, companyId: string) => Promise<number> | number): Promise<QueryTimings> {
  for (const [index, query] of queries.slice(0, 10).entries()) await run(query, `company-${index % 10}`);
  const latencies: number[] = [];
  let hits = 0;
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    hits += await run(query, `company-${index % 10}`);
    latencies.push(performance.now() - started);
  }
  return { p50: percentileOf(latencies, 50), p95: percentileOf(latencies, 95), meanHits: hits / queries.length };
}

/** The markdown adapter over a root: the query as the contract runs it (validation included). */
export function markdownQuery(root: string, neighbourWindows = true) {
  const adapter = createMarkdownAdapter({ root, neighbourWindows });
  return {
    adapter,
    run: async (query: string, companyId: string) =>
      (await adapter.query({ bindingKey: 'bench', scope: { companyId }, query, topK: 10 })).snippets.length,
  };
}

/** MiniSearch with the company as a stored field and a filter callback (its way to scope). */
export function buildMiniSearch(records: SyntheticRecord[]): MiniSearch<SyntheticRecord> {
  const index = new MiniSearch<SyntheticRecord>({ fields: ['text'], storeFields: ['companyId'], idField: 'id' });
  index.addAll(records);
  return index;
}

/** A MiniSearch query scoped to one company. */
export function miniSearchQuery(index: MiniSearch<SyntheticRecord>) {
  return (query: string, companyId: string) =>
    index.search(query, { combineWith: 'OR', filter: (result) => result.companyId === companyId }).slice(0, 10).length;
}

/** Orama with the company as an enum field. */
export async function buildOrama(records: SyntheticRecord[]): Promise<AnyOrama> {
  const database = create({ schema: { text: 'string', companyId: 'enum', agentId: 'enum' } as const });
  await insertMultiple(database, records.map((record) => ({ id: String(record.id), text: record.text, companyId: record.companyId, agentId: record.agentId })), 1000);
  return database;
}

/** An Orama query scoped to one company with `where`. */
export function oramaQuery(database: AnyOrama) {
  return async (query: string, companyId: string) =>
    (await search(database, { term: query, where: { companyId: { eq: companyId } }, limit: 10 })).hits.length;
}

/** Saves MiniSearch and Orama indexes as JSON files, the way a JS user persists them. */
export function saveIndexes(directory: string, miniSearch: MiniSearch<SyntheticRecord>, orama: AnyOrama): { miniSearchMs: number; oramaMs: number } {
  mkdirSync(directory, { recursive: true });
  let started = performance.now();
  writeFileSync(join(directory, 'minisearch.json'), JSON.stringify(miniSearch));
  const miniSearchMs = performance.now() - started;
  started = performance.now();
  writeFileSync(join(directory, 'orama.json'), JSON.stringify(save(orama)));
  return { miniSearchMs, oramaMs: performance.now() - started };
}

/** Opens a saved index of `engine` and returns a query function; used by the child process. */
export async function openSaved(engine: 'markdown' | 'minisearch' | 'orama', path: string): Promise<(query: string, companyId: string) => Promise<number> | number> {
  if (engine === 'markdown') return markdownQuery(path).run;
  if (engine === 'minisearch') {
    const index = MiniSearch.loadJSON<SyntheticRecord>(readFileSync(path, 'utf8'), { fields: ['text'], storeFields: ['companyId'], idField: 'id' });
    return miniSearchQuery(index);
  }
  const database = create({ schema: { text: 'string', companyId: 'enum', agentId: 'enum' } as const });
  load(database, JSON.parse(readFileSync(path, 'utf8')));
  return oramaQuery(database);
}
