import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import { createMemoryService, createSqliteMemoryServiceStore, dataFolderCursorSecret, loadPostgresMemoryServiceStore, type MemoryService } from '@memplane/service';
import { applyBindingsConfig, readBindingsConfig } from './mcp-bindings-config';

/** Where the embedded service keeps its data, and what it runs on. */
export interface EmbeddedServiceOptions {
  /** The data folder: the SQLite file, markdown memory, the cursor secret and the token file. Created when missing. */
  dataDirectory: string;
  /** A config file of bindings (JSON) applied at start. */
  configFile?: string;
  /** A Postgres connection string: the store goes to Postgres (needs `@memplane/service-postgres`) instead of SQLite. */
  postgresUrl?: string;
  /** The Postgres schema of the store's tables. Default `memplane`. */
  postgresSchema?: string;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** The SQLite file inside the data folder. */
export const sqliteFileName = 'memplane.db';

/**
 * Opens the memory service the way `memplane-mcp` runs it: SQLite in the data folder (or
 * Postgres), markdown memory under it, a cursor secret kept there, and the bindings of the
 * config file applied.
 */
export async function openEmbeddedService(options: EmbeddedServiceOptions): Promise<MemoryService> {
  const dataDirectory = resolve(options.dataDirectory);
  try {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The data folder ${dataDirectory} cannot be created`, cause });
  }
  const config = options.configFile === undefined ? undefined : await readBindingsConfig(options.configFile);
  const store =
    options.postgresUrl === undefined
      ? createSqliteMemoryServiceStore({ filename: join(dataDirectory, sqliteFileName) })
      : await loadPostgresMemoryServiceStore(options.postgresUrl, options.postgresSchema);
  const service = await createMemoryService({
    store,
    dataDirectory,
    cursorSecret: await dataFolderCursorSecret(dataDirectory),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(config?.secretEnvironment === undefined ? {} : { secretEnvironment: config.secretEnvironment }),
  });
  if (config !== undefined) {
    try {
      await applyBindingsConfig(service, config);
    } catch (error) {
      await service.close();
      throw MemoryError.isInstance(error) ? error : new MemoryConfigurationError({ message: 'The bindings config could not be applied', cause: error });
    }
  }
  return service;
}
