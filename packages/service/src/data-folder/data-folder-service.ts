import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { isMissingPackage, MemoryMissingPackageError } from '../errors/memory-missing-package-error';
import { privateFileMode, tightenFileMode } from '../security/private-file-mode';
import type { MemoryServiceStore } from '../store/memory-service-store';

/**
 * The cursor secret kept in a data folder (`cursor-secret`, mode 0600), created on first use.
 * Cursors are signed; a secret that outlives the process keeps `memory.list` cursors valid
 * across restarts. Two processes starting together agree on the first one written. An existing
 * file readable by the group or others is tightened to the owner alone.
 */
export async function dataFolderCursorSecret(dataDirectory: string): Promise<string> {
  const path = join(dataDirectory, 'cursor-secret');
  tightenFileMode(path);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('hex');
    try {
      await writeFile(path, `${secret}\n`, { mode: privateFileMode, flag: 'wx' });
      return secret;
    } catch {
      // Another process wrote it first: use theirs.
      return (await readFile(path, 'utf8')).trim();
    }
  }
}

/**
 * The Postgres store (`@memplane/service/postgres`), loaded on first use so hosts on SQLite
 * never load `pg`, an optional peer. A missing `pg` fails with `MemoryMissingPackageError`
 * naming it; any other load failure with `MemoryConfigurationError`.
 */
export async function loadPostgresMemoryServiceStore(connectionString: string, schema?: string): Promise<MemoryServiceStore> {
  let module: typeof import('../store/postgres/postgres-memory-service-store');
  try {
    module = await import('../store/postgres/postgres-memory-service-store');
  } catch (cause) {
    if (isMissingPackage(cause, 'pg')) throw new MemoryMissingPackageError({ packageName: 'pg', feature: 'The Postgres store', cause });
    throw new MemoryConfigurationError({ message: 'The Postgres store could not be loaded', cause });
  }
  return module.createPostgresMemoryServiceStore({ connectionString, ...(schema === undefined ? {} : { schema }) });
}
