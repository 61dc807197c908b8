import type Database from 'better-sqlite3';
import type { MemoryScope } from '@memplane/core';
import { memoryScopeFields } from '@memplane/core';
import { hash } from 'node:crypto';
import { tokenize } from '@memplane/rules';
import type { SequencePosition } from '@memplane/rules';
import type { LexicalDocument } from '@memplane/rules/sqlite';
import { RowidAllocator } from './markdown-company-rowids';
import { enableSecureDelete } from './markdown-forget';
import type { MarkdownSection, MemoryRecordSection, ResourceSection } from './markdown-section';
import { scopeKeyOf, scopeTokens } from './markdown-scope-tokens';
import { blockOf, recordTextIndexOf, searchableText, type RecordTextIndex } from './markdown-record-text-index';

/** What the index remembers of a file, to tell whether it changed on disk since it was read. */
export interface FileStamp {
  /** Size in bytes. */
  size: number;
  /** Modification time in nanoseconds, as a decimal string. */
  mtimeNs: string;
  /** The inode, as a decimal string; an atomic rename changes it. */
  inode: string;
  /**
   * The change time in nanoseconds, as a decimal string: it catches an edit that keeps size, mtime
   * and inode. A rename changes it too, so take a file's stamp after the rename that publishes it.
   */
  ctimeNs: string;
}

/** A file row of the index. */
export interface IndexedFile extends FileStamp {
  /** Root-relative path. */
  path: string;
  /** Sections of the file's kind (records or resources). */
  recordCount: number;
  /** The scope key of the file's records. */
  scopeKey: string;
  /** `records` or `resources`. */
  fileKind: 'records' | 'resources';
}

/** A record row: its section and where it lives. */
export interface IndexedRecord {
  /** The SQLite rowid (not stable across rebuilds). */
  rowid: number;
  /** The file it lives in. */
  file: string;
  /** The section. */
  section: MemoryRecordSection;
}

function metadataText(value: unknown, output: string[]): void {
  if (typeof value === 'string') output.push(value);
  else if (Array.isArray(value)) for (const entry of value) metadataText(entry, output);
  else if (typeof value === 'object' && value !== null) for (const entry of Object.values(value)) metadataText(entry, output);
}

const scopePrefixes = new Map<string, string>();

/**
 * The key that finds exact duplicates: a short hash of the scope, then a hash of the scope and the
 * exact text. The scope prefix keeps the keys of one batch side by side in their index, so a batch
 * dirties a few index pages instead of one page per record (a third of the records table's write cost).
 */
function dedupeKeyOf(scopeKey: string, text: string): string {
  let prefix = scopePrefixes.get(scopeKey);
  if (prefix === undefined) {
    prefix = hash('sha256', scopeKey, 'base64url').slice(0, 6);
    if (scopePrefixes.size > 10_000) scopePrefixes.clear();
    scopePrefixes.set(scopeKey, prefix);
  }
  return prefix + hash('sha256', `${scopeKey}\u0000${text}`, 'base64url').slice(0, 20);
}

/** Whether a record is returned by query: approved and not replaced. */
export function isSearchable(section: MemoryRecordSection): boolean {
  return section.status === 'approved' && section.supersededBy === undefined;
}

const scopeColumns = ['company_id', 'agent_id', 'project_id', 'issue_id', 'run_id', 'subject_id', 'session_key', 'namespace'];

/** The SQLite side of the store: rows derived from markdown sections, and the full-text indexes. */
export class MarkdownIndex {
  /** Set when the vector tables exist, so removed records lose their vectors too. */
  vectorTablesPresent = false;
  private readonly statements;
  private readonly text: RecordTextIndex;
  /** Full-text rows of the file being written, indexed together (one update of the totals). */
  private readonly pendingText: Array<LexicalDocument<'body' | 'metadata'>> = [];
  private readonly tokensByScope = new Map<string, string>();
  /** Dedupe keys of the texts of the batch being written, computed by findDuplicates, for the inserts. */
  private readonly batchKeys = new Map<string, string>();
  private batchScopeKey: string | undefined;
  private vectorStatements: { deleteVector: Database.Statement; deleteRow: Database.Statement } | undefined;

  constructor(readonly database: Database.Database, private readonly indexWindows = true) {
    this.text = recordTextIndexOf(database);
    enableSecureDelete(database);
    const placeholders = scopeColumns.map(() => '?').join(', ');
    this.statements = {
      file: database.prepare('SELECT * FROM files WHERE path = ?'),
      files: database.prepare('SELECT * FROM files'),
      upsertFile: database.prepare(
        `INSERT INTO files (path, size, mtime_ns, inode, ctime_ns, record_count, scope_key, file_kind, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, inode = excluded.inode, ctime_ns = excluded.ctime_ns,
         record_count = excluded.record_count, scope_key = excluded.scope_key, file_kind = excluded.file_kind, sequence = excluded.sequence`,
      ),
      sequenceOfFile: database.prepare('SELECT sequence FROM files WHERE path = ?').pluck(),
      // The unique index on sequence makes max() one lookup. A removed file's number may be reused: its windows went with its records.
      nextSequence: database.prepare('SELECT coalesce(max(sequence), -1) + 1 FROM files').pluck(),
      deleteFile: database.prepare('DELETE FROM files WHERE path = ?'),
      rowsOfFile: database.prepare('SELECT rowid, searchable FROM records WHERE file = ?'),
      deleteRecordsOfFile: database.prepare('DELETE FROM records WHERE file = ?'),
      deleteResourcesOfFile: database.prepare('DELETE FROM resources WHERE file = ?'),
      insertRecord: database.prepare(
        `INSERT INTO records (rowid, id, file, position, ${scopeColumns.join(', ')}, kind, status, version, dedupe_key, expires_at, searchable, section)
         VALUES (?, ?, ?, ?, ${placeholders}, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertResource: database.prepare('INSERT INTO resources (id, file, company_id, dedupe_key, section) VALUES (?, ?, ?, ?, ?)'),
      recordById: database.prepare('SELECT rowid, file, section FROM records WHERE id = ?'),
      recordIdExists: database.prepare('SELECT 1 FROM records WHERE id = ? UNION ALL SELECT 1 FROM resources WHERE id = ?'),
      resourceById: database.prepare('SELECT file, section FROM resources WHERE id = ?'),
      duplicates: database.prepare(
        "SELECT dedupe_key AS key, min(id) AS id FROM records WHERE dedupe_key IN (SELECT value FROM json_each(?)) AND status IN ('approved', 'pending') AND (expires_at IS NULL OR expires_at > ?) GROUP BY dedupe_key",
      ),
      duplicateResource: database.prepare('SELECT id FROM resources WHERE dedupe_key = ? LIMIT 1'),
      resourceFile: database.prepare('SELECT id, file FROM resources WHERE id = ?'),
      resourcesWithPassage: database.prepare('SELECT id, file FROM resources WHERE company_id = ? AND instr(section, ?) > 0'),
      lastPosition: database.prepare('SELECT max(position) AS position FROM records WHERE file = ?'),
      counts: database.prepare(
        'SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM resources) AS resources, (SELECT count(*) FROM files) AS files',
      ),
    };
  }

  /** The stamp and counts the index holds for a file. */
  file(path: string): IndexedFile | undefined {
    const row = this.statements.file.get(path) as Record<string, unknown> | undefined;
    return row === undefined ? undefined : toIndexedFile(row);
  }

  /** Every indexed file. */
  files(): IndexedFile[] {
    return (this.statements.files.all() as Array<Record<string, unknown>>).map(toIndexedFile);
  }

  /** Forgets everything derived from a file. */
  removeFile(path: string): void {
    const vectors = this.vectorTablesPresent ? this.vectorStatementsOf() : undefined;
    for (const row of this.statements.rowsOfFile.all(path) as Array<{ rowid: number; searchable: number }>) {
      if (row.searchable !== 1) continue;
      this.text.delete(row.rowid);
      vectors?.deleteVector.run(BigInt(row.rowid));
      vectors?.deleteRow.run(BigInt(row.rowid));
    }
    this.statements.deleteRecordsOfFile.run(path);
    this.statements.deleteResourcesOfFile.run(path);
    this.statements.deleteFile.run(path);
  }

  /**
   * Replaces everything derived from a file with its sections, read now. Returns ids skipped as
   * duplicates. `idsOfRebuild` holds every id indexed so far when the index was empty before, so a
   * rebuild tells duplicates in memory instead of asking the index for each section.
   */
  replaceFile(path: string, fileKind: IndexedFile['fileKind'], scopeKey: string, sections: MarkdownSection[], stamp: FileStamp, known = true, idsOfRebuild?: Set<string>): string[] {
    const sequence = this.sequenceOf(path);
    if (known) this.removeFile(path);
    this.pendingText.length = 0;
    const duplicates: string[] = [];
    const rowids = new RowidAllocator(this.database);
    let records = 0;
    let resources = 0;
    for (const section of sections) {
      if (idsOfRebuild === undefined ? this.idExists(section.id) : idsOfRebuild.has(section.id)) {
        duplicates.push(section.id);
        continue;
      }
      idsOfRebuild?.add(section.id);
      if (section.type === 'memory') {
        this.insertMemory(section, path, { id: sequence, position: records }, rowids);
        records += 1;
      } else {
        this.insertResource(section, path);
        resources += 1;
      }
    }
    this.flushText();
    this.stampFile(path, fileKind, scopeKey, fileKind === 'resources' ? resources : records, stamp, sequence);
    return duplicates;
  }

  /** Adds sections appended at the end of a file; the windows they join are updated with them. */
  appendToFile(path: string, fileKind: IndexedFile['fileKind'], scopeKey: string, sections: MarkdownSection[], stamp: FileStamp): void {
    const last = (this.statements.lastPosition.get(path) as { position: number | null }).position;
    const sequence = this.sequenceOf(path);
    const position = last === null ? 0 : last + 1;
    this.pendingText.length = 0;
    const rowids = new RowidAllocator(this.database);
    let records = 0;
    for (const section of sections) {
      if (section.type === 'memory') {
        this.insertMemory(section, path, { id: sequence, position: position + records }, rowids);
        records += 1;
      } else this.insertResource(section, path);
    }
    this.flushText();
    this.stampFile(path, fileKind, scopeKey, (this.file(path)?.recordCount ?? 0) + (fileKind === 'resources' ? sections.length : records), stamp, sequence);
  }

  /** Records the stamp of a file as written or read now. */
  stampFile(path: string, fileKind: IndexedFile['fileKind'], scopeKey: string, recordCount: number, stamp: FileStamp, sequence = this.sequenceOf(path)): void {
    this.statements.upsertFile.run(path, stamp.size, stamp.mtimeNs, stamp.inode, stamp.ctimeNs, recordCount, scopeKey, fileKind, sequence);
  }

  /** The file's sequence number: its own when it is indexed, else the next free one. */
  private sequenceOf(path: string): number {
    return (this.statements.sequenceOfFile.get(path) as number | undefined) ?? (this.statements.nextSequence.get() as number);
  }

  /** A record by id, whatever its scope. */
  record(id: string): IndexedRecord | undefined {
    const row = this.statements.recordById.get(id) as { rowid: number; file: string; section: string } | undefined;
    return row === undefined ? undefined : { rowid: row.rowid, file: row.file, section: JSON.parse(row.section) as MemoryRecordSection };
  }

  /** A resource by id, whatever its scope. */
  resource(id: string): { file: string; section: ResourceSection } | undefined {
    const row = this.statements.resourceById.get(id) as { file: string; section: string } | undefined;
    return row === undefined ? undefined : { file: row.file, section: JSON.parse(row.section) as ResourceSection };
  }

  /** Whether a record or resource already uses this id. */
  idExists(id: string): boolean {
    return this.statements.recordIdExists.get(id, id) !== undefined;
  }

  /**
   * The live records of the scope with exactly these texts: text to the id of the first one. An
   * expired todo is not live: a write of its text starts a new, visible record. One query for a
   * batch; the keys are kept for the inserts of the same batch.
   */
  findDuplicates(scope: MemoryScope, texts: ReadonlyArray<string>, now: string): Map<string, string> {
    const scopeKey = scopeKeyOf(scope);
    this.batchKeys.clear();
    this.batchScopeKey = scopeKey;
    const byKey = new Map<string, string>();
    for (const text of texts) {
      const key = dedupeKeyOf(scopeKey, text);
      this.batchKeys.set(text, key);
      byKey.set(key, text);
    }
    const found = new Map<string, string>();
    for (const row of this.statements.duplicates.all(JSON.stringify([...byKey.keys()]), now) as Array<{ key: string; id: string }>) {
      found.set(byKey.get(row.key) as string, row.id);
    }
    return found;
  }

  /** The resource of the scope with exactly this text, if any. */
  findDuplicateResource(scope: MemoryScope, text: string): string | undefined {
    const row = this.statements.duplicateResource.get(dedupeKeyOf(scopeKeyOf(scope), text)) as { id: string } | undefined;
    return row?.id;
  }

  /**
   * The resources of a company with one of these ids, or whose stored section holds one of these
   * passages (searched as JSON, as the section is stored). A scan of the company's resources, for
   * `forget` only.
   */
  resourcesHolding(companyId: string, ids: ReadonlyArray<string>, passages: ReadonlyArray<string>): Array<{ id: string; file: string }> {
    const found = new Map<string, string>();
    for (const id of ids) {
      const row = this.statements.resourceFile.get(id) as { id: string; file: string } | undefined;
      if (row !== undefined) found.set(row.id, row.file);
    }
    for (const passage of passages) {
      for (const row of this.statements.resourcesWithPassage.all(companyId, JSON.stringify(passage).slice(1, -1)) as Array<{ id: string; file: string }>) {
        found.set(row.id, row.file);
      }
    }
    return [...found].map(([id, file]) => ({ id, file }));
  }

  /**
   * Rewrites the full-text index into one segment. A deleted row only leaves a tombstone
   * in FTS5 (the tables are contentless), so the terms of every record ever deleted, a forgotten
   * one and the earlier versions a correction replaced, stay in old segments until a merge; this
   * merge drops them, and `secure_delete` zeroes the pages they were on. It costs about a second
   * at 100k records, so only `forget` runs it.
   */
  purgeDeletedTerms(): void {
    this.text.optimize();
  }

  /** Row counts, for stats. */
  counts(): { records: number; resources: number; files: number } {
    return this.statements.counts.get() as { records: number; resources: number; files: number };
  }

  /** Scope tokens hash every field; a batch shares one scope, so they are computed once per scope. */
  private tokensOf(scopeKey: string, scope: MemoryScope): string {
    let tokens = this.tokensByScope.get(scopeKey);
    if (tokens === undefined) {
      tokens = scopeTokens(scope);
      if (this.tokensByScope.size > 10_000) this.tokensByScope.clear();
      this.tokensByScope.set(scopeKey, tokens);
    }
    return tokens;
  }

  private vectorStatementsOf() {
    this.vectorStatements ??= {
      deleteVector: this.database.prepare('DELETE FROM vectors WHERE rowid = ?'),
      deleteRow: this.database.prepare('DELETE FROM vector_rows WHERE rowid = ?'),
    };
    return this.vectorStatements;
  }

  /**
   * Inserts a record and, when query may return it, its full-text row, placed in its file's
   * sequence so it joins its neighbours' windows (unless windows are off). A record query must not
   * return (pending, replaced) keeps its position but lends no words to its neighbours.
   */
  private insertMemory(section: MemoryRecordSection, file: string, place: SequencePosition, rowids: RowidAllocator): void {
    const scope = section.scope as unknown as Record<string, string | undefined>;
    const searchable = isSearchable(section);
    const scopeKey = scopeKeyOf(section.scope);
    const rowid = rowids.take(section.scope.companyId);
    this.statements.insertRecord.run(
      rowid,
      section.id,
      file,
      place.position,
      ...memoryScopeFields.map((field) => scope[field] ?? null),
      section.kind,
      section.status,
      section.version,
      (scopeKey === this.batchScopeKey ? this.batchKeys.get(section.text) : undefined) ?? dedupeKeyOf(scopeKey, section.text),
      section.expiresAt ?? null,
      searchable ? 1 : 0,
      JSON.stringify(section),
    );
    if (!searchable) return;
    const metadata: string[] = [];
    metadataText(section.metadata, metadata);
    this.pendingText.push({
      rowid,
      block: blockOf(rowid),
      tokens: { body: tokenize(searchableText(section)), metadata: tokenize(metadata.join('\n')) },
      filterTokens: this.tokensOf(scopeKey, section.scope),
      ...(this.indexWindows ? { sequence: place } : {}),
    });
  }

  private flushText(): void {
    if (this.pendingText.length === 0) return;
    this.text.insertMany(this.pendingText);
    this.pendingText.length = 0;
  }

  private insertResource(section: ResourceSection, file: string): void {
    this.statements.insertResource.run(section.id, file, section.scope.companyId, dedupeKeyOf(scopeKeyOf(section.scope), section.text), JSON.stringify(section));
  }
}

function toIndexedFile(row: Record<string, unknown>): IndexedFile {
  return {
    path: row.path as string,
    size: Number(row.size),
    mtimeNs: row.mtime_ns as string,
    inode: row.inode as string,
    ctimeNs: row.ctime_ns as string,
    recordCount: Number(row.record_count),
    scopeKey: row.scope_key as string,
    fileKind: row.file_kind as IndexedFile['fileKind'],
  };
}
