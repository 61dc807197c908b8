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
import { createHttpMemoryService, type HttpServiceLog } from '../http/memplane-http-service';
import { createHttpTransport, type HostFetch } from '../http/memplane-http-transport';
import type { PaperclipPluginConfig } from './paperclip-plugin-config';
import { inWorkerMemoryService, type PluginMemoryService } from './plugin-memory-service';

/** The SQLite file inside the plugin's data folder. */
export const pluginSqliteFileName = 'memplane.db';

/** The data folder when neither the plugin's options nor its instance config name one. */
export const defaultPluginDataDirectory = (): string => join(homedir(), '.memplane', 'paperclip');

/** What the worker needs from Paperclip to open its service. */
export interface ServiceHostPorts {
  /** Resolves a Paperclip secret reference for a company (`ctx.secrets.resolve`). */
  resolveSecret(secretRef: string, companyId: string | undefined): Promise<string>;
  /** The host's outbound HTTP (`ctx.http.fetch`), for a `memplane serve`. */
  fetch: HostFetch;
  /** Where the HTTP client logs what it cannot tell the server (never a token). */
  log: HttpServiceLog;
}

/**
 * Opens the worker's memory service where the instance config says: hosted in the worker
 * (the default), or a `memplane serve` reached through `ctx.http` with a token read from a
 * Paperclip secret. The URL was checked when the config was parsed (TLS unless loopback).
 */
export async function openPluginMemoryService(
  config: PaperclipPluginConfig,
  fallbackDataDirectory: string | undefined,
  ports: ServiceHostPorts,
  settings: Partial<MemoryServiceSettings>,
): Promise<PluginMemoryService> {
  const location = config.service;
  if (location?.mode !== 'http') return inWorkerMemoryService(await openPluginService(config.storage, fallbackDataDirectory, ports, settings));
  let token: string;
  try {
    token = await ports.resolveSecret(location.token.$secret.key, undefined);
  } catch (cause) {
    // The host's error may quote the reference; it never holds the value, which was not read.
    throw new MemoryConfigurationError({ message: 'The memplane serve token (service.token) could not be resolved from Paperclip secrets', cause });
  }
  if (typeof token !== 'string' || token.trim() === '') throw new MemoryConfigurationError({ message: 'The memplane serve token (service.token) resolved to an empty value' });
  const transport = createHttpTransport({ baseUrl: location.url, token: token.trim(), timeoutMs: location.timeoutMs, fetch: ports.fetch });
  return createHttpMemoryService(transport, ports.log, { actAsAgents: location.actAsAgents });
}

/**
 * Opens the memory service inside the plugin worker: SQLite in the plugin's data folder (or
 * Postgres from a secret reference), markdown memory under it, and every `{ $secret: { key } }`
 * of a binding resolved through Paperclip's secrets for the binding's own company.
 */
export async function openPluginService(
  storage: PaperclipPluginConfig['storage'],
  fallbackDataDirectory: string | undefined,
  ports: Pick<ServiceHostPorts, 'resolveSecret'>,
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
