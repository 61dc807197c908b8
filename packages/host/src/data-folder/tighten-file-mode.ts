import { chmodSync, statSync } from 'node:fs';
import { MemoryConfigurationError } from '@memplane/core';

/** Owner read and write, nothing for the group or others. */
export const privateFileMode = 0o600;

/**
 * Takes the group's and others' permissions off an existing file (one an earlier release or a
 * person created with a wider mode); the owner's bits are kept. A missing file stays missing. A
 * file whose mode cannot be changed (another owner) is a `MemoryConfigurationError`, since what
 * it holds would stay readable by others. (The service and the markdown adapter keep their own
 * copy of this for their files: sharing it would publish an internal.)
 */
export function tightenFileMode(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') return;
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
