import type Database from 'better-sqlite3';
import { memoryScopeFields, scopeMatches, type MemoryScope } from '@memplane/core';
import { companyRowids } from './markdown-company-rowids';
import { matchesMetadataFilter } from './markdown-metadata-filter';
import { orExpression, queryTerms } from '@memplane/rules';
import { scopeCondition } from './markdown-scope-tokens';
import type { MemoryRecordSection } from './markdown-section';

/** The weights of the lexical score. Tuned on the LoCoMo dev half (see BENCHMARKS.md). */
export interface LexicalWeights {
  /** The BM25 weight of the record's own text and summary. */
  body: number;
  /** How much the best window of neighbouring records (5 records, every 3) adds, relative to BM25 of the record. */
  context: number;
  /** The BM25 weight of the string values of its metadata. */
  metadata: number;
}

/** The defaults: windows count twice the record's own score (R@10 74.8 at 2 and 75.3 at 3 on LoCoMo dev; 69.8 at 0.5). */
export const defaultLexicalWeights: LexicalWeights = { body: 1, context: 2, metadata: 0.5 };

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
  /** By depth: a bound LIMIT inside the FTS subquery made SQLite prepare the statement again on every run. */
  records: Map<number, Database.Statement>;
  windows: Map<number, Database.Statement>;
  byRowid: Database.Statement;
}

const statementCache = new WeakMap<Database.Database, SearchStatements>();

function statementsOf(database: Database.Database): SearchStatements {
  let statements = statementCache.get(database);
  if (statements === undefined) {
    statements = {
      records: new Map(),
      windows: new Map(),
      byRowid: database.prepare('SELECT searchable, section FROM records WHERE rowid = ?'),
    };
    statementCache.set(database, statements);
  }
  return statements;
}

function recordsStatement(database: Database.Database, statements: SearchStatements, depth: number): Database.Statement {
  let statement = statements.records.get(depth);
  if (statement === undefined) {
    if (statements.records.size > 16) statements.records.clear();
    statement = database.prepare(
      `SELECT rowid, bm25(records_fts, 0, ?, ?) AS rank FROM records_fts WHERE records_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ${depth}`,
    );
    statements.records.set(depth, statement);
  }
  return statement;
}

function windowsStatement(database: Database.Database, statements: SearchStatements, depth: number): Database.Statement {
  let statement = statements.windows.get(depth);
  if (statement === undefined) {
    if (statements.windows.size > 16) statements.windows.clear();
    statement = database.prepare(
      `SELECT f.rank AS rank, w.members AS members
       FROM (SELECT rowid, bm25(windows_fts, 0, 1) AS rank FROM windows_fts WHERE windows_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ${depth}) AS f
       JOIN windows AS w ON w.rowid = f.rowid`,
    );
    statements.windows.set(depth, statement);
  }
  return statement;
}

function isVisible(section: MemoryRecordSection, options: SearchOptions): boolean {
  if (section.expiresAt !== undefined && section.expiresAt <= options.now) return false;
  if (options.scope !== undefined && !scopeMatches(section.scope, options.scope)) return false;
  return matchesMetadataFilter(section.metadata, options.metadataFilter);
}

interface Candidate {
  rowid: number;
  own: number;
  window: number;
}

/**
 * BM25 search inside the scope, over approved, current, unexpired records: each record scores its
 * own BM25 plus `context` times the best BM25 of a window of neighbouring records that contains it.
 * The company is a rowid range and the other scope fields are tokens, both inside FTS5.
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
  const expression = orExpression(terms);
  const rowids = companyRowids(database, scope.companyId);
  if (rowids === undefined) return [];
  const scopeFilter = scopeCondition(scope);
  const recordMatch = `${scopeFilter === undefined ? '' : `${scopeFilter} AND `}{body metadata} : (${expression})`;
  const windowMatch = `${scopeFilter === undefined ? '' : `${scopeFilter} AND `}body : (${expression})`;
  const statements = statementsOf(database);
  const { body, context, metadata } = options.weights;
  const checked = { ...options, scope };
  // Filters that SQL does not see (expiry, metadata, scope of hand-moved sections) can drop hits, so widen until enough survive.
  for (let depth = Math.max(options.limit * 4, 40); ; depth *= 4) {
    // Records are keyed by rowid; within a file rowids follow positions, so ties keep file order.
    const candidates = new Map<number, Candidate>();
    const recordRows = recordsStatement(database, statements, depth).all(body, metadata, recordMatch, rowids.first, rowids.last) as Array<{ rowid: number; rank: number }>;
    for (const row of recordRows) candidates.set(row.rowid, { rowid: row.rowid, own: -row.rank, window: 0 });
    let windowRows: Array<{ rank: number; members: string }> = [];
    if (context > 0) {
      windowRows = windowsStatement(database, statements, depth).all(windowMatch, rowids.first, rowids.last) as typeof windowRows;
      for (const row of windowRows) {
        for (const member of row.members.split(',')) {
          const rowid = Number(member);
          const candidate = candidates.get(rowid) ?? { rowid, own: 0, window: 0 };
          candidate.window = Math.max(candidate.window, -row.rank);
          candidates.set(rowid, candidate);
        }
      }
    }
    const ranked = [...candidates.values()]
      .map((candidate) => ({ candidate, score: candidate.own + context * candidate.window }))
      .sort((left, right) => right.score - left.score || left.candidate.rowid - right.candidate.rowid);
    const hits: SearchHit[] = [];
    for (const { candidate, score } of ranked) {
      const row = statements.byRowid.get(candidate.rowid) as { searchable: number; section: string } | undefined;
      if (row === undefined || row.searchable !== 1) continue;
      const section = JSON.parse(row.section) as MemoryRecordSection;
      if (!isVisible(section, checked)) continue;
      hits.push({
        section,
        score,
        ...(candidate.own > 0 ? { ownScore: candidate.own } : {}),
        ...(candidate.window > 0 ? { windowScore: candidate.window } : {}),
        terms,
      });
      if (hits.length === options.limit) return hits;
    }
    if (recordRows.length < depth && windowRows.length < depth) return hits;
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
