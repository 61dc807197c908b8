import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { MemoryScope, MemoryWarning } from '@memplane/core';
import { writeFileAtomically, removeFileDurably } from './markdown-atomic-write';
import type { MarkdownStoreEvent } from './markdown-events';
import { fileKindOf, sameStamp, scanMarkdownFiles, stampOf } from './markdown-file-scan';
import { MarkdownIndex, type FileStamp, type IndexedFile } from './markdown-index';
import { openIndexDatabase, resetIndexSchema, stampSchemaVersion } from './markdown-index-database';
import { resolveInsideRoot, resourcesFolder, scopeFolder, statePath } from './markdown-paths';
import { parseMarkdownFile, type ParsedMarkdownFile } from './markdown-section-parser';
import type { MarkdownSection } from './markdown-section';
import { renderFile, renderFileHeader, renderSection } from './markdown-section-writer';
import { scopeKeyOf } from './markdown-scope-tokens';

/** How the repository is opened. */
export interface RepositoryOptions {
  /** The markdown root. */
  root: string;
  /** The most sections of one kind per file before a new file is started. */
  sectionsPerFile: number;
  /** How long to wait for another process's write lock, in milliseconds. */
  lockTimeoutMs: number;
  /** Whether neighbour windows are indexed. */
  neighbourWindows: boolean;
  /** Receives store events. */
  onEvent?: (event: MarkdownStoreEvent) => void;
  /** Receives progress of long work (reindexing files). */
  onProgress?: (progress: MarkdownProgress) => void;
}

/** Progress of long work, for progress bars. */
export interface MarkdownProgress {
  /** What is running. */
  phase: 'reindex';
  /** Files done. */
  done: number;
  /** Files to do. */
  total: number;
}

/** What a reconcile found. */
export interface ReconcileReport {
  /** Files read again. */
  changed: string[];
  /** Files gone from disk. */
  removed: string[];
  /** Problems found in the files read. */
  problems: Array<{ file: string; line: number; message: string }>;
}

/**
 * The markdown files and the SQLite index derived from them. Every change happens inside
 * `write`, which holds the index's write lock (a SQLite `BEGIN IMMEDIATE`, released by the
 * operating system if the process dies), so writers in several processes never interleave.
 */
export class MarkdownRepository {
  readonly database: Database.Database;
  readonly index: MarkdownIndex;
  /** Runs inside a rebuild, after the tables were emptied, so derived tables of other modules (vectors) come back. */
  afterReset: (() => void) | undefined;
  /** Warnings to attach to the next result, from events nobody has seen yet. */
  readonly pendingWarnings: MemoryWarning[] = [];

  private constructor(readonly options: RepositoryOptions, database: Database.Database) {
    this.database = database;
    this.index = new MarkdownIndex(database, options.neighbourWindows);
  }

  /** Opens a root: opens or rebuilds the index, then reads files that changed while nobody watched. */
  static open(options: RepositoryOptions): MarkdownRepository {
    const opened = openIndexDatabase(statePath(options.root, 'index.sqlite'), options.lockTimeoutMs, statePath(options.root));
    const repository = new MarkdownRepository(options, opened.database);
    const windows = opened.database.prepare("SELECT value FROM meta WHERE key = 'neighbour_windows'").get() as { value: string } | undefined;
    const windowsChanged = opened.rebuildReason === undefined && windows?.value !== String(options.neighbourWindows);
    if (opened.rebuildReason !== undefined) repository.rebuild(opened.rebuildReason);
    else if (windowsChanged) repository.rebuild(`neighbourWindows changed to ${options.neighbourWindows}`);
    else repository.write(() => repository.reconcile());
    return repository;
  }

  /** Runs `work` under the write lock, in one index transaction. */
  write<Result>(work: () => Result): Result {
    return this.database.transaction(work).immediate();
  }

  /** Reports an event to the owner and keeps it as a warning for the next result. */
  emit(event: MarkdownStoreEvent): void {
    this.options.onEvent?.(event);
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
    const records = this.write(() => {
      resetIndexSchema(this.database);
      this.index.vectorTablesPresent = false;
      this.afterReset?.();
      const report = this.reconcile(false);
      stampSchemaVersion(this.database);
      this.database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('neighbour_windows', ?)").run(String(this.options.neighbourWindows));
      return report;
    });
    const count = this.index.counts().records;
    this.emit({ type: 'index_rebuilt', reason, records: count, durationMs: performance.now() - started });
    void records;
    return count;
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
      removeFileDurably(resolveInsideRoot(this.options.root, path));
      this.index.removeFile(path);
      return;
    }
    const stamp = this.writeFile(path, renderFile(read.parsed.preamble, sections) + kept);
    this.indexParsed(path, { ...read.parsed, sections, problems: [] }, stamp);
  }

  /** Closes the index. */
  close(): void {
    if (this.database.open) this.database.close();
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
    const absolute = resolveInsideRoot(this.options.root, path);
    writeFileAtomically(absolute, content);
    return stampOf(absolute) as FileStamp;
  }
}
