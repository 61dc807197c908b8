import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import { dataFolderSqliteFileName, openDataFolderService } from '@memplane/host';
import { loadProviderPackage, type MemoryService } from '@memplane/service';
import { applyBindingsConfig, readBindingsConfig } from './mcp-bindings-config';

/** Where the embedded service keeps its data, and what it runs on. */
export interface EmbeddedServiceOptions {
  /** The data folder: the SQLite file, markdown memory, the cursor secret and the token file. Created when missing. */
  dataDirectory: string;
  /** A config file of bindings (JSON) applied at start. */
  configFile?: string;
  /** A Postgres connection string: the store goes to Postgres (needs `pg` installed) instead of SQLite. */
  postgresUrl?: string;
  /** The Postgres schema of the store's tables. Default `memplane`. */
  postgresSchema?: string;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** The SQLite file inside the data folder. */
export const sqliteFileName = dataFolderSqliteFileName;

/**
 * Opens the memory service the way `memplane-mcp` runs it: the service's data-folder default
 * (SQLite in the folder, or Postgres; markdown memory under it; a cursor secret kept there),
 * with the bindings of the config file applied.
 */
export async function openEmbeddedService(options: EmbeddedServiceOptions): Promise<MemoryService> {
  const config = options.configFile === undefined ? undefined : await readBindingsConfig(options.configFile);
  // Loaded before anything is opened: a missing package names itself and leaves nothing behind.
  const configured = [];
  for (const packageName of config?.providers ?? []) configured.push(await loadProviderPackage(packageName));
  // The host registers markdown (the zero-config default) and the in-process reference adapter.
  const service = await openDataFolderService({
    dataDirectory: options.dataDirectory,
    databaseUrl: options.postgresUrl,
    databaseSchema: options.postgresSchema,
    environment: options.environment,
    providers: configured,
    config: config?.secretEnvironment === undefined ? undefined : { secretEnvironment: config.secretEnvironment },
    component: 'memplane-mcp',
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
