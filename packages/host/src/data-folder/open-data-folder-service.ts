import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError, type MemoryProviderDefinition } from '@memplane/core';
import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService, loadProviderPackage, MemoryMissingPackageError, type MemoryService, type MemoryServiceSettings } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import type { MemoryServiceStore } from '@memplane/service/store';
import type { HostConfig, HostConfigInput } from '../config/host-config-schema';
import { parseHostConfig } from '../config/read-host-config';
import { applyDeclaredCompanyBindings } from './apply-company-bindings';
import { dataFolderCursorSecret, loadPostgresMemoryServiceStore } from './data-folder-service';

/** The SQLite file inside the data folder. */
export const dataFolderSqliteFileName = 'memplane.db';

/** Service settings a host may add; the store, folder, cursor secret, providers, secrets and destinations are the host's. */
export type MemplaneHostServiceSettings = Omit<
  MemoryServiceSettings,
  'store' | 'dataDirectory' | 'cursorSecret' | 'providers' | 'environment' | 'secretEnvironment' | 'destinations'
>;

/** How the service of a data folder is opened: where its data is, what it runs on, and its config. */
export interface DataFolderServiceOptions {
  /** The data folder: SQLite `memplane.db`, markdown memory, `cursor-secret`. Created (mode 0700) when missing. */
  dataDirectory: string;
  /** A Postgres connection string: the service's tables go there; markdown memory stays in the folder. Needs `pg`. */
  databaseUrl?: string | undefined;
  /** The Postgres schema of the tables. Default `memplane`. */
  databaseSchema?: string | undefined;
  /** The host config (as `readHostConfig` reads it from a file): provider packages, secrets, destinations, bindings. Checked here. */
  config?: HostConfigInput | undefined;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Provider definitions to register besides the config's packages (a host that embeds its own).
   * One with the id `markdown` or `memory` takes the place of the host's zero-config one.
   */
  providers?: readonly MemoryProviderDefinition[] | undefined;
  /** More service settings (limits, deadlines, queue, policy). */
  service?: MemplaneHostServiceSettings | undefined;
  /** Who the host is in the activity log when it applies bindings. Default `memplane-host`. */
  component?: string | undefined;
}

/** What {@link openServiceParts} opened: the service, its store (for the token table), and what it was opened with. */
export interface DataFolderServiceParts {
  service: MemoryService;
  store: MemoryServiceStore;
  dataDirectory: string;
  config: HostConfig;
  component: string;
  /** Whether markdown, the zero-config provider, is registered (`@memplane/markdown` is an optional peer). */
  markdown: boolean;
}

/** How the markdown description is loaded; tests pass one that fails as a missing package does. */
export type MarkdownProviderLoader = () => Promise<unknown>;

const loadMarkdownModule: MarkdownProviderLoader = () => import('@memplane/markdown/provider');

/**
 * The description of markdown, the zero-config provider, or undefined when `@memplane/markdown`
 * is not installed: it is an optional peer, so a deployment on Postgres with hosted providers
 * (the Paperclip plugin's worker) never installs it nor compiles `better-sqlite3` for it.
 */
async function loadMarkdownProvider(load: MarkdownProviderLoader): Promise<MemoryProviderDefinition | undefined> {
  try {
    return await loadProviderPackage('@memplane/markdown', { load: () => load() });
  } catch (error) {
    if (MemoryMissingPackageError.isInstance(error) && error.packageName === '@memplane/markdown') return undefined;
    throw error;
  }
}

/** Creates the data folder (mode 0700) when missing, and returns its absolute path. */
async function prepareDataFolder(dataDirectory: string): Promise<string> {
  const absolute = resolve(dataDirectory);
  try {
    await mkdir(absolute, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The data folder ${absolute} cannot be created`, cause });
  }
  return absolute;
}

/** The definitions of the config's provider packages, loaded by name, in order. */
async function loadConfigProviders(packageNames: readonly string[]): Promise<MemoryProviderDefinition[]> {
  const definitions: MemoryProviderDefinition[] = [];
  for (const packageName of packageNames) definitions.push(await loadProviderPackage(packageName));
  return definitions;
}

/**
 * Opens the service of a data folder and returns it with its store. The config is checked and
 * the providers loaded before anything is created, so a bad config or a missing package leaves
 * no folder behind; whatever fails after the store is open closes it again.
 */
export async function openServiceParts(options: DataFolderServiceOptions, loadMarkdown: MarkdownProviderLoader = loadMarkdownModule): Promise<DataFolderServiceParts> {
  const config = parseHostConfig(options.config ?? {});
  const component = options.component ?? 'memplane-host';
  // The zero-config providers are the host's choice (the service itself knows none), unless the
  // embedder brings its own definition under the same id.
  const embedded = new Set((options.providers ?? []).map((definition) => definition.providerId));
  const markdownProvider = embedded.has('markdown') ? undefined : await loadMarkdownProvider(loadMarkdown);
  const hostProviders = [...(markdownProvider === undefined ? [] : [markdownProvider]), ...(embedded.has('memory') ? [] : [memoryProvider])];
  const providers = [...hostProviders, ...(await loadConfigProviders(config.providers)), ...(options.providers ?? [])];
  const dataDirectory = await prepareDataFolder(options.dataDirectory);
  const cursorSecret = await dataFolderCursorSecret(dataDirectory);
  const store =
    options.databaseUrl === undefined
      ? createSqliteMemoryServiceStore({ filename: join(dataDirectory, dataFolderSqliteFileName) })
      : await loadPostgresMemoryServiceStore(options.databaseUrl, options.databaseSchema);
  let service: MemoryService;
  try {
    service = await createMemoryService({
      ...options.service,
      store,
      dataDirectory,
      cursorSecret,
      providers,
      ...(options.environment === undefined ? {} : { environment: { ...options.environment } }),
      ...(config.secretEnvironment === undefined ? {} : { secretEnvironment: config.secretEnvironment }),
      ...(config.destinations === undefined ? {} : { destinations: config.destinations }),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    for (const [companyId, company] of Object.entries(config.companies)) await applyDeclaredCompanyBindings(service, component, companyId, company);
  } catch (error) {
    await service.close();
    throw MemoryError.isInstance(error) ? error : new MemoryConfigurationError({ message: 'The bindings of the config could not be applied', cause: error });
  }
  return { service, store, dataDirectory, config, component, markdown: markdownProvider !== undefined || embedded.has('markdown') };
}

/**
 * Opens the memory service on a data folder, without the token store: SQLite in the folder (or
 * Postgres), markdown memory under it, the cursor secret kept there, the providers (markdown when
 * `@memplane/markdown` is installed, memory, and the config's packages), the config's secret
 * allow-lists, destinations and bindings. For a process that serves no bearer tokens (an in-process worker, a benchmark);
 * `openMemplaneHost` adds the token store and the import of old token files.
 */
export async function openDataFolderService(options: DataFolderServiceOptions): Promise<MemoryService> {
  return (await openServiceParts(options)).service;
}
