import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { MemoryScope, MemoryWarning } from '@memplane/core';
import { writeFileAtomically, removeFileDurably } from './markdown-atomic-write';
import { toMemoryError } from './markdown-errors';
import type { MarkdownStoreEvent } from './markdown-events';
import type { ReconcileReport, RepositoryOptions } from './markdown-repository-types';
import { fileKindOf, sameStamp, scanMarkdownFiles, stampOf } from './markdown-file-scan';
import { MarkdownIndex, type FileStamp, type IndexedFile } from './markdown-index';
import { indexDidNotExist, indexRebuildReason, openIndexDatabase, resetIndexSchema, stampSchemaVersion } from './markdown-index-database';
import { resolveInsideRoot, resourcesFolder, scopeFolder, statePath } from './markdown-paths';
import { parseMarkdownFile, type ParsedMarkdownFile } from './markdown-section-parser';
import type { MarkdownSection } from './markdown-section';
import { renderFile, renderFileHeader, renderSection } from './markdown-section-writer';
import { scopeKeyOf } from './markdown-scope-tokens';
import type { MarkdownRootLock } from './markdown-root-lock';
import { replayBatchJournal, StagedFiles } from './markdown-staged-files';

export type { MarkdownProgress, ReconcileReport, RepositoryOptions } from './markdown-repository-types';

/**
 * The markdown files and the SQLite index derived from them. Every change happens inside
 * `write`, which holds the index's write lock (a SQLite `BEGIN IMMEDIATE`, released by the
 * operating system if the process dies), so writers in several processes never interleave.
 */
export class MarkdownRepository {
  readonly database: Database.Database;
  /** The rows derived from the markdown; set by `open` once the schema is known to be current. */
  index!: MarkdownIndex;
  /** Runs inside a rebuild, after the tables were emptied, so derived tables of other modules (vectors) come back. */
  afterReset: (() => void) | undefined;
  /** Warnings to attach to the next result, from events nobody has seen yet. */
  readonly pendingWarnings: MemoryWarning[] = [];

  /** The files the running write changed, published when it succeeds; undefined outside a write. */
  private staged: StagedFiles | undefined;

  private constructor(readonly options: RepositoryOptions, database: Database.Database, private readonly lock: MarkdownRootLock) {
    this.database = database;
  }

  /**
   * Opens a root: opens the index (under the shared root lock), then, under the write lock, finishes
   * a batch a crashed process had decided, checks the schema again and rebuilds the index in place
   * if it is missing or outdated, or else reads files that changed while nobody watched. Every
   * failure is a memplane error; a lock held too long by another process is a retryable one.
   */
  static open(options: RepositoryOptions): MarkdownRepository {
    const failure = { operation: 'open the markdown root', lockTimeoutMs: options.lockTimeoutMs, root: options.root };
    let repository: MarkdownRepository | undefined;
    try {
      const opened = openIndexDatabase(statePath(options.root, 'index.sqlite'), statePath(options.root, 'index.lock'), options.lockTimeoutMs, statePath(options.root));
      repository = new MarkdownRepository(options, opened.database, opened.lock);
      const opening = repository;
      const started = performance.now();
      const rebuilt = opening.write(() => {
        const reason = opened.replacedReason ?? indexRebuildReason(opened.database, options.neighbourWindows);
        if (reason !== undefined) {
          opening.rebuildInTransaction();
          return reason;
        }
        opening.index = new MarkdownIndex(opened.database, options.neighbourWindows);
        opening.reconcile();
        return undefined;
      });
      if (rebuilt !== undefined) opening.emit({ type: 'index_rebuilt', reason: rebuilt, records: opening.index.counts().records, durationMs: performance.now() - started });
      return opening;
    } catch (error) {
      repository?.close();
      throw toMemoryError(error, failure);
    }
  }

  /**
   * Runs `work` under the write lock, in one index transaction, as one batch: the markdown files it
   * changes become visible together when it succeeds, and not at all when it throws. A write inside
   * a write joins the outer batch. Failures are memplane errors.
   */
  write<Result>(work: () => Result): Result {
    if (this.staged !== undefined) return work();
    try {
      return this.database.transaction(() => {
        replayBatchJournal(this.options.root);
        const staged = new StagedFiles(this.options.root);
        this.staged = staged;
        try {
          const result = work();
          if (!staged.empty) for (const path of staged.publish()) this.restamp(path);
          return result;
        } catch (error) {
          staged.discard();
          throw error;
        } finally {
          this.staged = undefined;
        }
      }).immediate();
    } catch (error) {
      throw toMemoryError(error, { operation: 'write to the markdown root', lockTimeoutMs: this.options.lockTimeoutMs, root: this.options.root });
    }
  }

  /**
   * Reports an event to the owner and keeps it as a warning for the next result. Building the
   * index of a new, empty root is how every root starts, not a problem: the owner hears of it,
   * the caller gets no warning.
   */
  emit(event: MarkdownStoreEvent): void {
    this.options.onEvent?.(event);
    if (event.type === 'index_rebuilt' && event.reason === indexDidNotExist && event.records === 0) return;
    const message =
      event.type === 'index_rebuilt'
        ? `The markdown index was rebuilt (${event.reason}): ${event.records} records in ${Math.round(event.durationMs)} ms.`
        : event.type === 'files_reindexed'
          ? `Re-read ${event.changed.length} changed and ${event.removed.length} removed markdown files.`
          : `${event.file}:${event.line}: ${event.message}`;
    if (this.pendingWarnings.length < 50) this.pendingWarnings.push({ type: 'other', message });
  }

  /** Drops the index and builds it again from every markdown file. */
  rebuild(reason: string): number {
    const started = performance.now();
    this.write(() => this.rebuildInTransaction());
    const count = this.index.counts().records;
    this.emit({ type: 'index_rebuilt', reason, records: count, durationMs: performance.now() - started });
    return count;
  }

  /**
   * Empties the index in place and derives it again from every markdown file. Call it under the
   * write lock: the files stay where they are, so other processes that have them open simply see
   * the new rows when the transaction commits.
   */
  private rebuildInTransaction(): void {
    resetIndexSchema(this.database);
    this.index ??= new MarkdownIndex(this.database, this.options.neighbourWindows);
    this.index.vectorTablesPresent = false;
    this.afterReset?.();
    this.reconcile(false);
    stampSchemaVersion(this.database, this.options.neighbourWindows);
  }

  /**
   * Reads again every file whose size, modification time or inode differ from the index, and
   * drops the records of files that are gone. Call it under the write lock.
   */
  reconcile(announce = true): ReconcileReport {
    const onDisk = scanMarkdownFiles(this.options.root, true);
    const report: ReconcileReport = { changed: [], removed: [], problems: [] };
    const indexed = new Map(this.index.files().map((file) => [file.path, file]));
    for (const path of indexed.keys()) {
      if (!onDisk.has(path)) {
        this.index.removeFile(path);
        report.removed.push(path);
      }
    }
    const changed = [...onDisk].filter(([path, stamp]) => !sameStamp(indexed.get(path), stamp));
    // Records live in files, so an index without files is empty and a Set of the ids read so far tells duplicates.
    const idsOfRebuild = indexed.size === 0 ? new Set<string>() : undefined;
    let done = 0;
    for (const [path] of changed) {
      done += 1;
      if (this.options.onProgress !== undefined && (done === changed.length || done % 10 === 0)) {
        this.options.onProgress({ phase: 'reindex', done, total: changed.length });
      }
      const { parsed, stamp: readStamp } = this.readFile(path) ?? {};
      if (parsed === undefined || readStamp === undefined) continue;
      this.indexParsed(path, parsed, readStamp, report, indexed.has(path), idsOfRebuild);
      report.changed.push(path);
    }
    if (announce && (report.changed.length > 0 || report.removed.length > 0)) {
      this.emit({ type: 'files_reindexed', changed: report.changed, removed: report.removed });
    }
    for (const problem of report.problems) this.emit({ type: 'parse_problem', ...problem });
    return report;
  }

  /**
   * Appends sections to the current file of their scope and kind, starting a new file when it
   * is full. Call it under the write lock. Returns the files written.
   */
  appendSections(scope: MemoryScope, fileKind: IndexedFile['fileKind'], sections: MarkdownSection[], at: string): string[] {
    const written: string[] = [];
    let remaining = sections;
    const folder = fileKind === 'resources' ? `${scopeFolder(scope)}/${resourcesFolder}` : scopeFolder(scope);
    const day = at.slice(0, 10);
    for (let number = 1; remaining.length > 0; number += 1) {
      const path = `${folder}/${number === 1 ? day : `${day}-${number}`}.md`;
      const current = this.freshFile(path);
      const room = this.options.sectionsPerFile - (current?.count ?? 0);
      if (room <= 0) continue;
      const batch = remaining.slice(0, room);
      remaining = remaining.slice(room);
      const base = current?.content ?? renderFileHeader(scope, fileKind === 'resources' ? 'Captured resources' : 'Memory records');
      const head = base.endsWith('\n') ? base : `${base}\n`;
      const stamp = this.writeFile(path, head + batch.map((section) => `\n${renderSection(section)}`).join(''));
      this.index.appendToFile(path, fileKind, scopeKeyOf(scope), batch, stamp);
      written.push(path);
    }
    return written;
  }

  /**
   * Rewrites one file: reads it as it is on disk now (a hand edit is never lost), lets `change`
   * return its new sections, writes it atomically and indexes it again. Call it under the write lock.
   */
  rewriteFile(path: string, change: (sections: MarkdownSection[]) => MarkdownSection[]): void {
    const read = this.readFile(path);
    if (read === undefined) return;
    const sections = change(read.parsed.sections);
    const kept = read.parsed.unreadable.map((block) => `\n${block}\n`).join('');
    if (sections.length === 0 && read.parsed.unreadable.length === 0) {
      if (this.staged !== undefined) this.staged.remove(path);
      else removeFileDurably(resolveInsideRoot(this.options.root, path));
      this.index.removeFile(path);
      return;
    }
    const stamp = this.writeFile(path, renderFile(read.parsed.preamble, sections) + kept);
    this.indexParsed(path, { ...read.parsed, sections, problems: [] }, stamp);
  }

  /** Closes the index. */
  close(): void {
    if (this.database.open) this.database.close();
    this.lock.close();
  }

  private indexParsed(path: string, parsed: ParsedMarkdownFile, stamp: FileStamp, report?: ReconcileReport, known = true, idsOfRebuild?: Set<string>): void {
    const fileKind = fileKindOf(path);
    const first = parsed.sections[0];
    const scopeKey = parsed.fileScope !== undefined ? scopeKeyOf(parsed.fileScope) : first !== undefined ? scopeKeyOf(first.scope) : '';
    const duplicates = this.index.replaceFile(path, fileKind, scopeKey, parsed.sections, stamp, known, idsOfRebuild);
    for (const problem of parsed.problems) report?.problems.push({ file: path, ...problem });
    for (const id of duplicates) report?.problems.push({ file: path, line: 1, message: `the id ${id} is used twice; this copy was skipped` });
  }

  /** The file's content and section count, after indexing it again if it changed on disk. */
  private freshFile(path: string): { content: string; count: number } | undefined {
    const staged = this.staged?.content(path);
    if (staged !== undefined) return staged === null ? undefined : { content: staged, count: this.index.file(path)?.recordCount ?? 0 };
    const indexed = this.index.file(path);
    const stamp = stampOf(resolveInsideRoot(this.options.root, path));
    if (stamp === undefined) {
      if (indexed !== undefined) this.index.removeFile(path);
      return undefined;
    }
    if (indexed !== undefined && sameStamp(indexed, stamp)) {
      return { content: readFileSync(resolveInsideRoot(this.options.root, path), 'utf8'), count: indexed.recordCount };
    }
    const read = this.readFile(path);
    if (read === undefined) return undefined;
    this.indexParsed(path, read.parsed, read.stamp);
    const kind = fileKindOf(path) === 'resources' ? 'resource' : 'memory';
    return { content: read.content, count: read.parsed.sections.filter((section) => section.type === kind).length };
  }

  private readFile(path: string): { parsed: ParsedMarkdownFile; stamp: FileStamp; content: string } | undefined {
    const staged = this.staged?.content(path);
    const indexed = staged === undefined ? undefined : this.index.file(path);
    if (staged === null) return undefined;
    if (staged !== undefined && indexed !== undefined) {
      const defaultTime = new Date(Number(BigInt(indexed.mtimeNs) / 1_000_000n)).toISOString();
      return { parsed: parseMarkdownFile(staged, defaultTime), stamp: indexed, content: staged };
    }
    const absolute = resolveInsideRoot(this.options.root, path);
    for (;;) {
      const before = stampOf(absolute);
      if (before === undefined) return undefined;
      const content = readFileSync(absolute, 'utf8');
      const after = stampOf(absolute);
      // A file that changed while it was read is read again, so the stamp matches the content.
      if (!sameStamp(before, after)) continue;
      const defaultTime = new Date(Number(BigInt(before.mtimeNs) / 1_000_000n)).toISOString();
      return { parsed: parseMarkdownFile(content, defaultTime), stamp: before, content };
    }
  }

  private writeFile(path: string, content: string): FileStamp {
    if (this.staged !== undefined) return stampOf(this.staged.write(path, content)) as FileStamp;
    const absolute = resolveInsideRoot(this.options.root, path);
    writeFileAtomically(absolute, content);
    return stampOf(absolute) as FileStamp;
  }

  /** Takes a published file's stamp from the file itself: a rename may change what the temporary file's stamp said (its ctime). */
  private restamp(path: string): void {
    const row = this.index.file(path);
    const stamp = stampOf(resolveInsideRoot(this.options.root, path));
    if (row !== undefined && stamp !== undefined) this.index.stampFile(path, row.fileKind, row.scopeKey, row.recordCount, stamp);
  }
}
