import { chmodSync, closeSync, constants, fchmodSync, openSync, statSync } from 'node:fs';
import { fileConfigurationError } from './markdown-errors';

/** Owner read and write, nothing for the group or others. */
export const privateFileMode = 0o600;

/** The files SQLite creates beside a database: the write-ahead log, its index, the rollback journal. */
const sqliteCompanionSuffixes = ['-wal', '-shm', '-journal'] as const;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Takes the group's and others' permissions off an existing file (one an earlier release or a
 * person created with a wider mode); the owner's bits are kept. A missing file stays missing. A
 * file whose mode cannot be changed (another owner) is a configuration error naming it, since what
 * it holds would stay readable by others; any other failure to read its mode is thrown as it is.
 */
export function tightenFileMode(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode & 0o700);
  } catch (error) {
    throw fileConfigurationError(path, `readable by other users (mode ${(mode & 0o777).toString(8)}) and its mode cannot be changed to 0600; change its owner or mode.`, error);
  }
}

/**
 * Makes a SQLite database file private before it is opened: creates it empty with mode 0600
 * (whatever the umask) when missing, or tightens an existing one and its companions to the owner
 * alone. SQLite creates `-wal`, `-shm` and `-journal` files with the mode of the database file,
 * so they are 0600 too.
 */
export function preparePrivateSqliteFile(path: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, privateFileMode);
    // The umask may have taken more than group and others: the owner must still read and write it.
    fchmodSync(descriptor, privateFileMode);
  } catch (error) {
    // EEXIST: the file is there. Any other failure (no permission, a missing folder) is for
    // SQLite to report when it opens the file, as before.
    if (errorCode(error) !== 'EEXIST') return;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  tightenFileMode(path);
  for (const suffix of sqliteCompanionSuffixes) tightenFileMode(`${path}${suffix}`);
}
