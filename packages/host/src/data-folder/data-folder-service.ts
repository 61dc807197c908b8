import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import { MemoryMissingPackageError } from '@memplane/service';
import type { MemoryServiceStore } from '@memplane/service/store';
import { privateFileMode, tightenFileMode } from './tighten-file-mode';

/** The file of the cursor secret inside a data folder. */
export const cursorSecretFileName = 'cursor-secret';

/**
 * The cursor secret kept in a data folder (`cursor-secret`, mode 0600), created on first use.
 * Cursors are signed; a secret that outlives the process keeps `memory.list` cursors valid
 * across restarts. Two processes starting together agree on the first one written. An existing
 * file readable by the group or others is tightened to the owner alone.
 */
export async function dataFolderCursorSecret(dataDirectory: string): Promise<string> {
  const path = join(dataDirectory, cursorSecretFileName);
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

/** Whether `error` says that `packageName` itself (not something it imports) cannot be found. */
function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${packageName}'`) || message.includes(`"${packageName}"`));
}

type PostgresStoreModule = Pick<typeof import('@memplane/service/postgres'), 'createPostgresMemoryServiceStore'>;

/** The Postgres store through `importModule`: the real `import()` in {@link loadPostgresMemoryServiceStore}, a failing one in tests. */
export async function loadPostgresStoreWith(importModule: () => Promise<PostgresStoreModule>, connectionString: string, schema?: string): Promise<MemoryServiceStore> {
  let module: PostgresStoreModule;
  try {
    module = await importModule();
  } catch (cause) {
    if (MemoryError.isInstance(cause)) throw cause;
    if (isMissingPackage(cause, 'pg')) throw new MemoryMissingPackageError({ packageName: 'pg', feature: 'The Postgres store (a database URL)', cause });
    throw new MemoryConfigurationError({ message: 'The Postgres store could not be loaded', cause });
  }
  return module.createPostgresMemoryServiceStore({ connectionString, ...(schema === undefined ? {} : { schema }) });
}

/**
 * The Postgres store (`@memplane/service/postgres`), loaded on first use so hosts on SQLite
 * never load `pg`, an optional peer. A missing `pg` fails with `MemoryMissingPackageError`
 * naming it; any other load failure with `MemoryConfigurationError`.
 */
export async function loadPostgresMemoryServiceStore(connectionString: string, schema?: string): Promise<MemoryServiceStore> {
  return loadPostgresStoreWith(() => import('@memplane/service/postgres'), connectionString, schema);
}
