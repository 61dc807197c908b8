import { join, resolve } from 'node:path';
import { ensureDefaultMarkdownBinding, openDataFolderService } from '@memplane/host';
import type { MemoryService } from '@memplane/service';
import type { ServerRateLimitSettings } from './server-rate-limit';
import { openServerTokenFile, serverTokenFileName, type ServerTokenFile } from './server-token-file';
import { startMemplaneServer, type RunningMemplaneServer } from './start-memplane-server';

/** How `memplane serve` runs: where the data is, where to listen, and the limits. */
export interface ServeMemplaneOptions {
  /** The data folder: SQLite, markdown memory, the cursor secret and the token file. Default `.memplane`. */
  dataDirectory: string;
  /** A Postgres connection string: the service's store goes there (needs `pg` installed). */
  databaseUrl?: string;
  /** The Postgres schema of the store's tables. Default `memplane`. */
  databaseSchema?: string;
  /** The token file. Default `<dataDirectory>/server-tokens.json`. */
  tokenFile?: string;
  /** The address to bind. Default `127.0.0.1`. */
  host?: string;
  /** The port; 0 picks a free one. Default 4680. */
  port?: number;
  /** The largest request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Per-token rate limits, or `false`. */
  rateLimit?: ServerRateLimitSettings | false;
  /** The inspector folder, or `false`. Default: the built-in one. */
  inspectorDirectory?: string | false;
  /** Where lines for the operator go (a token file that cannot be read or is damaged). `memplane serve` writes them to standard error. Default: nowhere. */
  log?(line: string): void;
}

/** A running `memplane serve`: the server, the service under it and its token file. */
export interface ServedMemplane {
  /** The HTTP server. */
  http: RunningMemplaneServer;
  /** The memory service. */
  service: MemoryService;
  /** The token file. */
  tokens: ServerTokenFile;
  /** Stops the server, then closes the service (flushing the operation log). */
  close(): Promise<void>;
}

/** The token file of a data folder, or the one named. */
export function serverTokenFileOf(dataDirectory: string, tokenFile?: string): ServerTokenFile {
  return openServerTokenFile(resolve(tokenFile ?? join(dataDirectory, serverTokenFileName)));
}

/**
 * Opens the service on a data folder (or Postgres) and serves it: the zero-config default of
 * `memplane serve`. A company the service does not know gets a `default` markdown binding at its
 * first runtime write (capture, records, a hook); a read of it answers 404 and creates nothing.
 */
export async function serveMemplane(options: ServeMemplaneOptions): Promise<ServedMemplane> {
  const dataDirectory = resolve(options.dataDirectory);
  // The host registers markdown (the zero-config default) and the in-process reference adapter.
  const service = await openDataFolderService({ dataDirectory, databaseUrl: options.databaseUrl, databaseSchema: options.databaseSchema, component: 'memplane-serve' });
  const tokens = serverTokenFileOf(dataDirectory, options.tokenFile);
  let http: RunningMemplaneServer;
  try {
    http = await startMemplaneServer({
      service,
      verifyToken: (token) => tokens.verify(token),
      knownCompanies: async () => (await tokens.list()).flatMap((record) => (record.role === 'operator' ? (record.companyIds ?? []) : [record.companyId])),
      prepareCompany: (companyId) => ensureDefaultMarkdownBinding(service, 'memplane-serve', companyId),
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.inspectorDirectory === undefined ? {} : { inspectorDirectory: options.inspectorDirectory }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    http,
    service,
    tokens,
    async close() {
      await http.close();
      await service.close();
    },
  };
}
