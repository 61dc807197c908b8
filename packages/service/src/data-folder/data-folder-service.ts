import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
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
 * A Postgres store from `@memplane/service-postgres`, loaded on first use so hosts on SQLite
 * never install it. A missing package fails with `MemoryConfigurationError` saying what to install.
 */
export async function loadPostgresMemoryServiceStore(connectionString: string, schema?: string): Promise<MemoryServiceStore> {
  const specifier = '@memplane/service-postgres';
  let module: { createPostgresMemoryServiceStore(settings: { connectionString: string; schema?: string }): MemoryServiceStore };
  try {
    module = (await import(specifier)) as typeof module;
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((cause as Error).message).includes(specifier);
    throw new MemoryConfigurationError({
      message: missing ? `Postgres needs ${specifier}: npm install ${specifier}` : `${specifier} could not be loaded`,
      cause,
    });
  }
  return module.createPostgresMemoryServiceStore({ connectionString, ...(schema === undefined ? {} : { schema }) });
}
