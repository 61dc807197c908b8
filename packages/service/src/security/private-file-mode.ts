import { chmodSync, closeSync, constants, fchmodSync, openSync, statSync } from 'node:fs';
import { MemoryConfigurationError } from '@memplane/core';

/** Owner read and write, nothing for the group or others. */
export const privateFileMode = 0o600;

/** The files SQLite creates beside a database: the write-ahead log, its index, the rollback journal. */
const sqliteCompanionSuffixes = ['-wal', '-shm', '-journal'] as const;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Takes the group's and others' permissions off an existing file (a file created by an earlier
 * release, or by hand, with a wider mode). The owner's bits are kept. A missing file is left
 * missing; a file whose mode cannot be changed (another owner) is a `MemoryConfigurationError`,
 * since what it holds would stay readable by others.
 */
export function tightenFileMode(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw new MemoryConfigurationError({ message: `${path} cannot be checked for its permissions.`, cause: error });
  }
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode & 0o700);
  } catch (cause) {
    throw new MemoryConfigurationError({
      message: `${path} is readable by other users (mode ${(mode & 0o777).toString(8)}) and its mode cannot be changed to 0600: change its owner or mode.`,
      cause,
    });
  }
}

/**
 * Makes a SQLite database file private before it is opened: creates it empty with mode 0600
 * (whatever the umask) when missing, or tightens an existing one and its companions to the
 * owner alone. SQLite creates `-wal`, `-shm` and `-journal` files with the mode of the database
 * file, so they are 0600 too. `:memory:` and the empty name (a temporary database) have no file.
 */
export function preparePrivateSqliteFile(filename: string): void {
  if (filename === ':memory:' || filename.trim() === '') return;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(filename, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, privateFileMode);
    // The umask may have taken more than group and others: the owner must still read and write it.
    fchmodSync(descriptor, privateFileMode);
  } catch (error) {
    // EEXIST: the file is there. Any other failure (a missing folder, no permission) is for SQLite
    // to report when it opens the file, as it did before.
    if (errorCode(error) !== 'EEXIST') return;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  tightenFileMode(filename);
  for (const suffix of sqliteCompanionSuffixes) tightenFileMode(`${filename}${suffix}`);
}
