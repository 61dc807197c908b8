import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fsyncDirectory, removeFileDurably, temporaryPrefix, writeFileAtomically, writeTemporaryBeside } from './markdown-atomic-write';
import { fileConfigurationError } from './markdown-errors';
import { companiesFolder, resolveInsideRoot, statePath } from './markdown-paths';

/** The name, under `.memplane/`, of the journal of a batch being published. */
export const batchJournalName = 'batch-journal.json';

/** A staged change of one markdown file: its new content in a temporary file, or its removal. */
type StagedChange = { kind: 'write'; temporary: string; content: string } | { kind: 'remove' };

/** What the journal holds: root-relative paths only, so a moved root still replays. */
interface BatchJournal {
  version: 1;
  renames: Array<{ temporary: string; target: string }>;
  removals: string[];
}

/**
 * The markdown files one write changes, held back until the whole write succeeded, then published
 * together, so a batch is all or nothing across files and across a crash.
 *
 * Each new content goes to a hidden temporary file beside its target, flushed to disk. Until
 * `publish`, nothing visible changes: a failure anywhere (a folder where a file should be, a full
 * disk) drops the temporary files and the index transaction rolls back. `publish` first writes a
 * journal of the renames (atomically, flushed) when more than one file changes: from then on the
 * batch is decided, and an open that finds the journal finishes the renames (`replayBatchJournal`).
 * A crash before the journal leaves only hidden temporary files, which the next writer removes.
 */
export class StagedFiles {
  private readonly changes = new Map<string, StagedChange>();
  /** Set once the journal is on disk: from then on the temporary files belong to the journal's replay. */
  private decided = false;

  constructor(private readonly root: string) {}

  /** Whether nothing is staged. */
  get empty(): boolean {
    return this.changes.size === 0;
  }

  /** The staged content of a root-relative path: a string, `null` when staged for removal, undefined when not staged. */
  content(path: string): string | null | undefined {
    const change = this.changes.get(path);
    return change === undefined ? undefined : change.kind === 'write' ? change.content : null;
  }

  /** Stages new content for a file; returns the temporary file, whose stamp the index takes until `publish`. */
  write(path: string, content: string): string {
    this.dropTemporary(path);
    const temporary = writeTemporaryBeside(resolveInsideRoot(this.root, path), content);
    this.changes.set(path, { kind: 'write', temporary, content });
    return temporary;
  }

  /** Stages the removal of a file. */
  remove(path: string): void {
    this.dropTemporary(path);
    this.changes.set(path, { kind: 'remove' });
  }

  /** Makes every staged change visible; returns the paths written (not removed). */
  publish(): string[] {
    const renames: BatchJournal['renames'] = [];
    const removals: string[] = [];
    for (const [path, change] of this.changes) {
      if (change.kind === 'write') renames.push({ temporary: `${dirname(path)}/${basename(change.temporary)}`, target: path });
      else removals.push(path);
    }
    const journalPath = statePath(this.root, batchJournalName);
    const journaled = renames.length + removals.length > 1;
    // The journal is the point of no return: once it is on disk, the batch is applied in full.
    if (journaled) {
      writeFileAtomically(journalPath, JSON.stringify({ version: 1, renames, removals } satisfies BatchJournal));
      this.decided = true;
    }
    applyJournal(this.root, { version: 1, renames, removals });
    this.changes.clear();
    if (journaled) removeFileDurably(journalPath);
    return renames.map((rename) => rename.target);
  }

  /**
   * Drops every staged change and its temporary file, unless the batch was decided: then a failure
   * while renaming leaves the journal and the files for the next write or open to finish.
   */
  discard(): void {
    if (!this.decided) for (const path of this.changes.keys()) this.dropTemporary(path);
    this.changes.clear();
  }

  private dropTemporary(path: string): void {
    const change = this.changes.get(path);
    if (change?.kind === 'write') rmSync(change.temporary, { force: true });
  }
}

/** Renames and removes what a journal lists; a rename whose temporary file is gone was done already. */
function applyJournal(root: string, journal: BatchJournal): void {
  const folders = new Set<string>();
  for (const { temporary, target } of journal.renames) {
    const from = resolveInsideRoot(root, temporary);
    const to = resolveInsideRoot(root, target);
    if (existsSync(from)) renameSync(from, to);
    folders.add(dirname(to));
  }
  for (const target of journal.removals) {
    const absolute = resolveInsideRoot(root, target);
    rmSync(absolute, { force: true });
    folders.add(dirname(absolute));
  }
  for (const folder of folders) if (existsSync(folder)) fsyncDirectory(folder);
}

function isMarkdownTarget(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith(`${companiesFolder}/`) && path.endsWith('.md') && !path.split('/').includes('..');
}

function parseJournal(text: string): BatchJournal | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const journal = value as Partial<BatchJournal> | null;
  if (journal?.version !== 1 || !Array.isArray(journal.renames) || !Array.isArray(journal.removals)) return undefined;
  // Only what a writer could have staged is replayed: a hidden temporary file beside its markdown target.
  const renamesOk = journal.renames.every(
    (rename) => isMarkdownTarget(rename?.target) && typeof rename.temporary === 'string' && dirname(rename.temporary) === dirname(rename.target) && basename(rename.temporary).startsWith(temporaryPrefix),
  );
  return renamesOk && journal.removals.every(isMarkdownTarget) ? (journal as BatchJournal) : undefined;
}

/**
 * Finishes a batch that a crashed process had decided (its journal is on disk) but not fully
 * published. Call it under the write lock, before anything reads or cleans the markdown. Returns
 * whether a journal was replayed. A journal this version could not have written is refused with a
 * configuration error naming it, and nothing is touched.
 */
export function replayBatchJournal(root: string): boolean {
  const path = statePath(root, batchJournalName);
  if (!existsSync(path)) return false;
  const journal = parseJournal(readFileSync(path, 'utf8'));
  if (journal === undefined) {
    throw fileConfigurationError(path, 'is not a batch journal this version of @memplane/markdown wrote; check the markdown under companies/ and delete the file to go on.');
  }
  applyJournal(root, journal);
  removeFileDurably(path);
  return true;
}
