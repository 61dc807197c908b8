import type Database from 'better-sqlite3';
import { memoryScopeFields, scopeMatches, type MemoryScope } from '@memplane/core';
import { queryTerms, rankCandidates, type WindowedScores } from '@memplane/rules';
import { companyRowids } from './markdown-company-rowids';
import { matchesMetadataFilter } from './markdown-metadata-filter';
import { scopeCondition } from './markdown-scope-tokens';
import { blockOf, recordTextIndexOf } from './markdown-record-text-index';
import type { MemoryRecordSection } from './markdown-section';

/** The weights of the lexical score. Tuned on the LoCoMo dev half (see BENCHMARKS.md). */
export interface LexicalWeights {
  /** The BM25 weight of the record's own text and summary. */
  body: number;
  /** How much the best window of neighbouring records (4 records, every 2) adds, relative to BM25 of the record. */
  context: number;
  /** The BM25 weight of the string values of its metadata. */
  metadata: number;
}

/** The defaults: windows count three times the record's own score, as in `@memplane/engine` (BENCHMARKS.md, markdown-locomo). */
export const defaultLexicalWeights: LexicalWeights = { body: 1, context: 3, metadata: 0.5 };

/** One search hit. */
export interface SearchHit {
  /** The record. */
  section: MemoryRecordSection;
  /** The score, higher is better. */
  score: number;
  /** The record's own BM25 score, when it matched. */
  ownScore?: number;
  /** The best score of a window containing it, when one matched. */
  windowScore?: number;
  /** The query terms the search used. */
  terms: string[];
}

/** Options of a search. */
export interface SearchOptions {
  /** How many hits to return. */
  limit: number;
  /** The current time, ISO 8601; todos that expired before it are skipped. */
  now: string;
  /** The weights. */
  weights: LexicalWeights;
  /** Only records whose metadata has these top-level values. */
  metadataFilter?: Record<string, unknown>;
  /** The scope the records must match (checked on every record returned). */
  scope?: MemoryScope;
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

interface SearchStatements {
  byRowid: Database.Statement;
}

const statementCache = new WeakMap<Database.Database, SearchStatements>();

function statementsOf(database: Database.Database): SearchStatements {
  let statements = statementCache.get(database);
  if (statements === undefined) {
    statements = {
      byRowid: database.prepare('SELECT searchable, section FROM records WHERE rowid = ?'),
    };
    statementCache.set(database, statements);
  }
  return statements;
}

function isVisible(section: MemoryRecordSection, options: SearchOptions): boolean {
  if (section.expiresAt !== undefined && section.expiresAt <= options.now) return false;
  if (options.scope !== undefined && !scopeMatches(section.scope, options.scope)) return false;
  return matchesMetadataFilter(section.metadata, options.metadataFilter);
}

/**
 * BM25 search inside the scope, over approved, current, unexpired records: each record scores its
 * own BM25 (text and summary, plus `metadata` times that of its metadata's strings) plus `context`
 * times the best BM25 of a window of neighbouring records that contains it. The corpus of the
 * scores is the company's records (and windows); the company is a rowid range and the other scope
 * fields are tokens, both inside FTS5. A search reads the postings of its terms, and the members of
 * the windows they fall in, never the rest of the company's records.
 */
export function searchLexical(database: Database.Database, scope: MemoryScope, query: string, options: SearchOptions): SearchHit[] {
  // One read transaction, so the company's rowid block and the rows found come from the same
  // snapshot even when another process rebuilds (and numbers the companies again) meanwhile.
  return readSnapshotOf(database)(() => searchInSnapshot(database, scope, query, options));
}

const snapshots = new WeakMap<Database.Database, (work: () => SearchHit[]) => SearchHit[]>();

function readSnapshotOf(database: Database.Database): (work: () => SearchHit[]) => SearchHit[] {
  let run = snapshots.get(database);
  if (run === undefined) {
    const transaction = database.transaction((work: () => SearchHit[]) => work());
    run = (work) => transaction.deferred(work);
    snapshots.set(database, run);
  }
  return run;
}

function searchInSnapshot(database: Database.Database, scope: MemoryScope, query: string, options: SearchOptions): SearchHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const rowids = companyRowids(database, scope.companyId);
  if (rowids === undefined) return [];
  const range = { block: blockOf(rowids.first), first: rowids.first, last: rowids.last };
  const filter = scopeCondition(scope);
  const statements = statementsOf(database);
  const index = recordTextIndexOf(database);
  const { body, context, metadata } = options.weights;
  const own = new Map<number, number>();
  let windowed: WindowedScores = { documents: new Map(), bestWindow: new Map(), windows: new Map() };
  if (context > 0) {
    windowed = index.scoreWithWindows(terms, range, filter);
    if (body > 0) for (const [rowid, score] of windowed.documents) own.set(rowid, body * score);
  } else if (body > 0) for (const [rowid, score] of index.score('body', terms, range, filter)) own.set(rowid, body * score);
  if (metadata > 0) for (const [rowid, score] of index.score('metadata', terms, range, filter)) own.set(rowid, (own.get(rowid) ?? 0) + metadata * score);
  const ranked = rankCandidates({ own, bestWindow: windowed.bestWindow, windows: windowed.windows, context }, (keys) => index.windowMembers(keys));
  const checked = { ...options, scope };
  const hits: SearchHit[] = [];
  // Filters that FTS5 does not see (expiry, metadata, the scope of hand-moved sections) are checked
  // on the ranked records, best first, until enough pass.
  for (const next of ranked) {
    const rowid = next.rowid;
    const row = statements.byRowid.get(rowid) as { searchable: number; section: string } | undefined;
    if (row === undefined || row.searchable !== 1) continue;
    const section = JSON.parse(row.section) as MemoryRecordSection;
    if (!isVisible(section, checked)) continue;
    const { ownScore, windowScore } = next;
    hits.push({ section, score: next.score, ...(ownScore > 0 ? { ownScore } : {}), ...(windowScore > 0 ? { windowScore } : {}), terms });
    if (hits.length === options.limit) break;
  }
  return hits;
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
