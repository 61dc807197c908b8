import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { dataFolderSqliteFileName, openDataFolderService } from '@memplane/host';
import type { MemoryServiceSettings } from '@memplane/service';
import { createHttpMemoryService, type HttpServiceLog } from '../http/memplane-http-service';
import { createHttpTransport, type HostFetch } from '../http/memplane-http-transport';
import type { PaperclipPluginConfig } from './paperclip-plugin-config';
import { decodeServiceSecretKey, resolveConfigSecret, type ResolvePaperclipSecret } from './paperclip-secret-refs';
import { inWorkerMemoryService, type PluginMemoryService } from './plugin-memory-service';
import { loadPluginProviders } from './plugin-providers';

/** The SQLite file inside the plugin's data folder: the host's, so `memplane serve` opens the same folder. */
export const pluginSqliteFileName = dataFolderSqliteFileName;

/**
 * The data folder when neither the plugin's options nor the company's config name one. Paperclip
 * starts the worker without HOME; `os.homedir()` then falls back to the worker user's passwd entry.
 */
export const defaultPluginDataDirectory = (): string => join(homedir(), '.memplane', 'paperclip');

/** What the worker needs from Paperclip to open services. */
export interface ServiceHostPorts {
  /** Resolves a Paperclip `secret_ref` for a company at its config path (`ctx.secrets.resolve`). */
  resolveSecret: ResolvePaperclipSecret;
  /** The host's outbound HTTP (`ctx.http.fetch`), for a `memplane serve`. */
  fetch: HostFetch;
  /** Where the HTTP client logs what it cannot tell the server (never a token). */
  log: HttpServiceLog;
}

const fingerprint = (value: string) => createHash('sha256').update(value).digest('hex');

/** The services of one worker, one per distinct storage location or server and token, shared by the companies that name it. */
export interface PluginServiceRegistry {
  /** The service a company's config names, opened on first use; secrets are resolved here, once per call of this (a config load), never per memory call. */
  serviceFor(companyId: string, config: PaperclipPluginConfig): Promise<PluginMemoryService>;
  /** Every service opened so far. */
  opened(): PluginMemoryService[];
  /** Closes every service. */
  close(): Promise<void>;
}

/**
 * Creates the registry. A worker-mode service is keyed by its data folder (two services on one
 * SQLite file would corrupt it; companies naming the same folder must then name the same
 * Postgres too); an http client by server URL, token and client settings. A company's bindings
 * are applied by the caller to the service it gets.
 */
export function createPluginServiceRegistry(ports: ServiceHostPorts, settings: Partial<MemoryServiceSettings>, fallbackDataDirectory: string | undefined): PluginServiceRegistry {
  const services = new Map<string, { storage: string; opening: Promise<PluginMemoryService> }>();
  const ready = new Set<PluginMemoryService>();

  const share = (key: string, storage: string, open: () => Promise<PluginMemoryService>, what: string): Promise<PluginMemoryService> => {
    const existing = services.get(key);
    if (existing !== undefined) {
      if (existing.storage !== storage) {
        return Promise.reject(new MemoryConfigurationError({ message: `${what} is already used by another company with other storage; companies sharing a data folder must share its storage` }));
      }
      return existing.opening;
    }
    const opening = open();
    services.set(key, { storage, opening });
    // A service that failed to open is tried again on the next config load, not kept as broken.
    opening.then(
      (service) => ready.add(service),
      () => services.get(key)?.opening === opening && services.delete(key),
    );
    return opening;
  };

  async function inWorker(companyId: string, storage: PaperclipPluginConfig['storage']): Promise<PluginMemoryService> {
    const dataDirectory = resolve(storage?.dataDirectory ?? fallbackDataDirectory ?? defaultPluginDataDirectory());
    const postgres = storage?.postgres;
    const connectionString = postgres === undefined ? undefined : await resolveConfigSecret(ports.resolveSecret, postgres.connectionString, companyId, 'storage.postgres.connectionString');
    const storageKey = connectionString === undefined ? 'sqlite' : `postgres:${fingerprint(connectionString)}:${postgres?.schema ?? ''}`;
    return share(`worker:${dataDirectory}`, storageKey, () => openPluginService(dataDirectory, connectionString, postgres?.schema, ports, settings), `The data folder ${dataDirectory}`);
  }

  async function overHttp(companyId: string, location: Extract<NonNullable<PaperclipPluginConfig['service']>, { mode: 'http' }>): Promise<PluginMemoryService> {
    const token = await resolveConfigSecret(ports.resolveSecret, location.token, companyId, 'service.token');
    const key = `http:${location.url}:${fingerprint(token)}:${location.timeoutMs}:${location.actAsAgents}`;
    return share(key, key, async () => {
      const transport = createHttpTransport({ baseUrl: location.url, token, timeoutMs: location.timeoutMs, fetch: ports.fetch });
      return createHttpMemoryService(transport, ports.log, { actAsAgents: location.actAsAgents });
    }, `The memplane serve at ${location.url}`);
  }

  return {
    serviceFor: (companyId, config) => (config.service?.mode === 'http' ? overHttp(companyId, config.service) : inWorker(companyId, config.storage)),
    opened: () => [...ready],
    async close() {
      const all = [...services.values()];
      services.clear();
      ready.clear();
      for (const entry of all) {
        const service = await entry.opening.catch(() => undefined);
        await service?.close();
      }
    },
  };
}

/**
 * Opens a memory service inside the plugin worker through the host (`openDataFolderService`):
 * SQLite in the data folder (or Postgres with a resolved connection string), markdown memory
 * under it, the folder's cursor secret, and every secret of a binding resolved through
 * Paperclip's secrets for the binding's own company at the path it was saved at.
 */
async function openPluginService(
  dataDirectory: string,
  connectionString: string | undefined,
  schema: string | undefined,
  ports: Pick<ServiceHostPorts, 'resolveSecret'>,
  settings: Partial<MemoryServiceSettings>,
): Promise<PluginMemoryService> {
  try {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The plugin data folder ${dataDirectory} cannot be created; set storage.dataDirectory to a folder the worker may write`, cause });
  }
  // The worker offers every provider package installed next to it, markdown and memory included
  // (in place of the host's), or a stand-in saying why one cannot be used; then the embedder's own.
  const { providers: extraProviders = [], ...rest } = settings;
  const service = await openDataFolderService({
    dataDirectory,
    databaseUrl: connectionString,
    databaseSchema: schema,
    providers: [...(await loadPluginProviders()), ...extraProviders],
    component: 'paperclip-plugin',
    service: {
      // The company comes from the service (the binding's company), never from the key: one
      // company's config cannot name a secret that Paperclip scopes to another.
      secretResolver: (key, context) => {
        const { ref, configPath } = decodeServiceSecretKey(key);
        return ports.resolveSecret(ref, { companyId: context.companyId, configPath });
      },
      ...rest,
    },
  });
  return inWorkerMemoryService(service);
}
