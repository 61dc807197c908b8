import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { dataFolderCursorSecret, loadPostgresMemoryServiceStore } from './data-folder-service';

/** Where a data-folder service keeps its data, and what it runs on. */
export interface DataFolderServiceOptions {
  /** The data folder: the SQLite file, markdown memory, the cursor secret, token files. Created (mode 0700) when missing. */
  dataDirectory: string;
  /** A Postgres connection string: the store goes to Postgres (needs the optional peer `pg`) instead of SQLite. */
  postgresUrl?: string;
  /** The Postgres schema of the store's tables. Default `memplane`. */
  postgresSchema?: string;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** More service settings (secret allow-list, limits); the store, data folder and cursor secret are set here. */
  service?: Omit<MemoryServiceSettings, 'store' | 'dataDirectory' | 'cursorSecret'>;
}

/** The SQLite file inside the data folder. */
export const dataFolderSqliteFileName = 'memplane.db';

/**
 * Opens the memory service on a data folder, the embedded default of the hosts that run it as
 * a process (`memplane-mcp`, `memplane serve`): SQLite in the folder (or Postgres), markdown
 * memory under it, and a cursor secret kept there so cursors outlive restarts.
 */
export async function openDataFolderService(options: DataFolderServiceOptions): Promise<MemoryService> {
  const dataDirectory = resolve(options.dataDirectory);
  try {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The data folder ${dataDirectory} cannot be created`, cause });
  }
  const store =
    options.postgresUrl === undefined
      ? createSqliteMemoryServiceStore({ filename: join(dataDirectory, dataFolderSqliteFileName) })
      : await loadPostgresMemoryServiceStore(options.postgresUrl, options.postgresSchema);
  return createMemoryService({
    ...options.service,
    store,
    dataDirectory,
    cursorSecret: await dataFolderCursorSecret(dataDirectory),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
}
