import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import {
  createMemoryService,
  createSqliteMemoryServiceStore,
  dataFolderCursorSecret,
  loadPostgresMemoryServiceStore,
  type MemoryService,
  type MemoryServiceSettings,
} from '@memplane/service';
import type { PaperclipPluginConfig } from './paperclip-plugin-config';

/** The SQLite file inside the plugin's data folder. */
export const pluginSqliteFileName = 'memplane.db';

/** The data folder when neither the plugin's options nor its instance config name one. */
export const defaultPluginDataDirectory = (): string => join(homedir(), '.memplane', 'paperclip');

/** What the worker needs from Paperclip to open its service. */
export interface ServiceHostPorts {
  /** Resolves a Paperclip secret reference for a company (`ctx.secrets.resolve`). */
  resolveSecret(secretRef: string, companyId: string | undefined): Promise<string>;
}

/**
 * Opens the memory service inside the plugin worker: SQLite in the plugin's data folder (or
 * Postgres from a secret reference), markdown memory under it, and every `{ $secret: { key } }`
 * of a binding resolved through Paperclip's secrets for the binding's own company.
 */
export async function openPluginService(
  storage: PaperclipPluginConfig['storage'],
  fallbackDataDirectory: string | undefined,
  ports: ServiceHostPorts,
  settings: Partial<MemoryServiceSettings>,
): Promise<MemoryService> {
  const dataDirectory = resolve(storage?.dataDirectory ?? fallbackDataDirectory ?? defaultPluginDataDirectory());
  try {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: 'The plugin data folder cannot be created', cause });
  }
  const store =
    storage?.postgres === undefined
      ? createSqliteMemoryServiceStore({ filename: join(dataDirectory, pluginSqliteFileName) })
      : await loadPostgresMemoryServiceStore(await ports.resolveSecret(storage.postgres.connectionStringRef, undefined), storage.postgres.schema);
  return createMemoryService({
    store,
    dataDirectory,
    cursorSecret: await dataFolderCursorSecret(dataDirectory),
    // The company comes from the service (the binding's company), never from the reference: one company's
    // settings page cannot name a secret that Paperclip scopes to another.
    secretResolver: (key, context) => ports.resolveSecret(key, context.companyId),
    ...settings,
  });
}
