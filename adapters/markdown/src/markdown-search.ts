import type Database from 'better-sqlite3';
import { memoryScopeFields, type MemoryScope } from '@memplane/core';
import { matchesMetadataFilter } from './markdown-metadata-filter';
import { orExpression, queryTerms } from './markdown-query-terms';
import { scopeCondition } from './markdown-scope-tokens';
import type { MemoryRecordSection } from './markdown-section';

/** The BM25 weights of the indexed fields. Tuned on the LoCoMo dev half (see BENCHMARKS.md). */
export interface LexicalWeights {
  /** The record's own text and summary. */
  body: number;
  /** The text of the records written just before and after it in the same file. */
  context: number;
  /** The string values of its metadata. */
  metadata: number;
}

/** The default weights: neighbour context at half the weight of the record's own text. */
export const defaultLexicalWeights: LexicalWeights = { body: 1, context: 0.5, metadata: 0.5 };

/** One search hit. */
export interface SearchHit {
  /** The record. */
  section: MemoryRecordSection;
  /** The score, higher is better. */
  score: number;
  /** The query terms the search used. */
  terms: string[];
}

/** Options of a search. */
export interface SearchOptions {
  /** How many hits to return. */
  limit: number;
  /** The current time, ISO 8601; todos that expired before it are skipped. */
  now: string;
  /** The field weights. */
  weights: LexicalWeights;
  /** Only records whose metadata has these top-level values. */
  metadataFilter?: Record<string, unknown>;
}

const scopeColumnOf: Record<string, string> = {
  companyId: 'company_id',
  agentId: 'agent_id',
  projectId: 'project_id',
  issueId: 'issue_id',
  runId: 'run_id',
  subjectId: 'subject_id',
  sessionKey: 'session_key',
  namespace: 'namespace',
};

function isVisible(section: MemoryRecordSection, options: Pick<SearchOptions, 'now' | 'metadataFilter'>): boolean {
  if (section.expiresAt !== undefined && section.expiresAt <= options.now) return false;
  return matchesMetadataFilter(section.metadata, options.metadataFilter);
}

/** BM25 search inside the scope, over approved, current, unexpired records. */
export function searchLexical(database: Database.Database, scope: MemoryScope, query: string, options: SearchOptions): SearchHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const match = `${scopeCondition(scope)} AND {body context metadata} : (${orExpression(terms)})`;
  const { body, context, metadata } = options.weights;
  const statement = database.prepare(
    `SELECT f.rank AS rank, r.section AS section
     FROM (SELECT rowid, bm25(records_fts, 0, ?, ?, ?) AS rank FROM records_fts WHERE records_fts MATCH ? ORDER BY rank LIMIT ?) AS f
     JOIN records AS r ON r.rowid = f.rowid`,
  );
  // Filters that SQL does not see (expiry, metadata) can drop hits, so fetch more until enough survive.
  for (let candidates = options.limit * 2 + 10; ; candidates *= 4) {
    let rows: Array<{ rank: number; section: string }>;
    try {
      rows = statement.all(body, context, metadata, match, candidates) as typeof rows;
    } catch {
      return [];
    }
    const hits = rows
      .map((row) => ({ section: JSON.parse(row.section) as MemoryRecordSection, score: -row.rank, terms }))
      .filter((hit) => isVisible(hit.section, options))
      .sort((left, right) => right.score - left.score || (left.section.id < right.section.id ? -1 : 1));
    if (hits.length >= options.limit || rows.length < candidates) return hits.slice(0, options.limit);
  }
}

/** One page of a listing by id. */
export interface ListedPage {
  /** The records of the page. */
  sections: MemoryRecordSection[];
  /** Whether more records follow. */
  hasMore: boolean;
}

/** Lists the current (approved or pending) records of a scope in id order, after `afterId`. */
export function listSections(
  database: Database.Database,
  scope: MemoryScope,
  options: { afterId?: string; limit: number; metadataFilter?: Record<string, unknown> },
): ListedPage {
  const conditions = ["status IN ('approved', 'pending')"];
  const values: unknown[] = [];
  for (const field of memoryScopeFields) {
    const value = scope[field];
    if (value === undefined) continue;
    conditions.push(`${scopeColumnOf[field]} = ?`);
    values.push(value);
  }
  const statement = database.prepare(
    `SELECT id, section FROM records WHERE ${conditions.join(' AND ')} AND id > ? ORDER BY id LIMIT ?`,
  );
  const found: MemoryRecordSection[] = [];
  let after = options.afterId ?? '';
  const batch = Math.max(options.limit + 1, 64);
  for (;;) {
    const rows = statement.all(...values, after, batch) as Array<{ id: string; section: string }>;
    for (const row of rows) {
      const section = JSON.parse(row.section) as MemoryRecordSection;
      if (matchesMetadataFilter(section.metadata, options.metadataFilter)) found.push(section);
      if (found.length > options.limit) return { sections: found.slice(0, options.limit), hasMore: true };
    }
    if (rows.length < batch) return { sections: found, hasMore: false };
    after = (rows.at(-1) as { id: string }).id;
  }
}
