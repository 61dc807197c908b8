import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The prefix of temporary files; the scanner skips hidden files, so a leftover one is never read. */
export const temporaryPrefix = '.tmp-';

/** Flushes a folder, so the renames and removals in it survive a power cut. */
export function fsyncDirectory(directory: string): void {
  const descriptor = openSync(directory, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Replaces a file atomically: the content goes to a temporary file in the same folder, is
 * flushed to disk, renamed over the target, and the folder itself is flushed so the rename
 * survives a power cut. A reader sees the old file or the new one, never a mix.
 */
export function writeFileAtomically(path: string, content: string | Uint8Array, mode = 0o644): void {
  const temporary = writeTemporaryBeside(path, content, mode);
  renameSync(temporary, path);
  fsyncDirectory(dirname(path));
}

/**
 * Writes `content` to a new hidden temporary file in the folder of `path` (created if missing) and
 * flushes it to disk; returns its path. Renaming it over `path` is the caller's to do, which lets
 * a batch publish several files together.
 */
export function writeTemporaryBeside(path: string, content: string | Uint8Array, mode = 0o644): string {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temporary = join(directory, `${temporaryPrefix}${basename(path)}-${randomBytes(6).toString('hex')}`);
  const descriptor = openSync(temporary, 'wx', mode);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let written = 0;
    while (written < bytes.length) written += writeSync(descriptor, bytes, written, bytes.length - written);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  return temporary;
}

/** Removes a file and flushes its folder, so the removal survives a crash. */
export function removeFileDurably(path: string): void {
  rmSync(path, { force: true });
  fsyncDirectory(dirname(path));
}
