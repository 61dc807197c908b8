import { join, resolve } from 'node:path';
import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import { MemoryMissingPackageError, type MemoryService } from '@memplane/service';
import { memoryTokenStoreMethods, type MemoryTokenStore } from '@memplane/service/store';
import type { HostConfig } from './config/host-config-schema';
import { ensureDefaultMarkdownBinding } from './data-folder/apply-company-bindings';
import { openServiceParts, type DataFolderServiceOptions, type MarkdownProviderLoader } from './data-folder/open-data-folder-service';
import type { MemplaneHostLog } from './host-warning';
import { importTokenFiles, mcpTokenFileName, serverTokenFileName, type TokenFileImport } from './tokens/import-token-files';
import { createMemplaneTokenStore, type MemplaneTokenStore } from './tokens/memplane-token-store';

/** How {@link openMemplaneHost} opens a host. Only `dataDirectory` is required: the rest is the zero-config default. */
export interface MemplaneHostOptions extends DataFolderServiceOptions {
  /** An old token file to import besides the data folder's `mcp-tokens.json` and `server-tokens.json` (the `--token-file` of old). */
  tokenFile?: string | undefined;
  /** Where warnings go (a token file that could not be imported). Default: nowhere. */
  log?: MemplaneHostLog | undefined;
  /** The clock of tokens (issue, expiry, revocation). Default: the system's. */
  now?: (() => Date) | undefined;
}

/** An open host: the service on its data folder or database, and the token store beside it. */
export interface MemplaneHost {
  /** The memory service. */
  readonly service: MemoryService;
  /** The bearer tokens, in the service's database. */
  readonly tokens: MemplaneTokenStore;
  /** The data folder, absolute. */
  readonly dataDirectory: string;
  /** The checked config. */
  readonly config: HostConfig;
  /** The old token files imported on this open (none once they are renamed aside). */
  readonly tokenImports: readonly TokenFileImport[];
  /**
   * The zero-config default: a company with no binding at all gets a `default` binding on
   * markdown, as its company default. A company with any binding is left as its operator made it.
   * Without `@memplane/markdown` installed (an optional peer), a company that needs the default
   * gets `MemoryMissingPackageError` naming it.
   */
  ensureDefaultBinding(companyId: string): Promise<void>;
  /** Closes the service (flushing the operation log) and its store. */
  close(): Promise<void>;
}

/** The token methods of the store, checked before they are trusted with tokens. */
function tokenTableOf(store: unknown): MemoryTokenStore {
  const table = store as Partial<MemoryTokenStore>;
  for (const method of memoryTokenStoreMethods) {
    if (typeof table[method] !== 'function') throw new MemoryConfigurationError({ message: `The service store has no token table (${method} is missing): upgrade @memplane/service` });
  }
  return table as MemoryTokenStore;
}

/**
 * Opens a host: the data folder (mode 0700), the service on SQLite in it or on Postgres, the
 * cursor secret kept there (0600), the providers (markdown and memory, plus the config's
 * packages loaded by name), the config's secret allow-lists, destinations and bindings, and the
 * token store in the service's database, into which old token files are imported once.
 * `memplane serve`, `memplane-mcp`, the Paperclip plugin's worker and `memplane token` open it.
 */
export async function openMemplaneHost(options: MemplaneHostOptions): Promise<MemplaneHost> {
  return openHostWith(options);
}

/** {@link openMemplaneHost} with the markdown loader of a test. */
export async function openHostWith(options: MemplaneHostOptions, loadMarkdown?: MarkdownProviderLoader): Promise<MemplaneHost> {
  const { service, store, dataDirectory, config, component, markdown } = await openServiceParts(options, loadMarkdown);
  try {
    const table = tokenTableOf(store);
    const tokenFiles = [join(dataDirectory, mcpTokenFileName), join(dataDirectory, serverTokenFileName), ...(options.tokenFile === undefined ? [] : [resolve(options.tokenFile)])];
    const tokenImports = await importTokenFiles(table, [...new Set(tokenFiles)], options.log);
    return {
      service,
      tokens: createMemplaneTokenStore(table, options.now === undefined ? {} : { now: options.now }),
      dataDirectory,
      config,
      tokenImports,
      async ensureDefaultBinding(companyId) {
        if (!markdown && (await service.control({ actor: { kind: 'system', component }, companyId }).listBindings()).length === 0) {
          throw new MemoryMissingPackageError({ packageName: '@memplane/markdown', feature: `The zero-config default binding of company "${companyId}" (markdown memory)` });
        }
        await ensureDefaultMarkdownBinding(service, component, companyId);
      },
      close: () => service.close(),
    };
  } catch (error) {
    await service.close();
    throw MemoryError.isInstance(error) ? error : new MemoryConfigurationError({ message: 'The token store could not be opened', cause: error });
  }
}
