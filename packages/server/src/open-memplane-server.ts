import { openMemplaneHost, type HostConfigInput, type MemplaneHost, type MemplaneHostLog, type MemplaneTokenStore } from '@memplane/host';
import type { MemoryService } from '@memplane/service';
import type { ServerRateLimitSettings } from './server-rate-limit';
import { startMemplaneServer, type RunningMemplaneServer } from './start-memplane-server';

/** How `memplane serve` runs: where the data is, its config, where to listen, and the limits. */
export interface ServeMemplaneOptions {
  /** The data folder: SQLite (with the token table), markdown memory and the cursor secret. Default `.memplane`. */
  dataDirectory: string;
  /** A Postgres connection string: the service's store and the token table go there (needs `pg` installed). */
  databaseUrl?: string;
  /** The Postgres schema of the store's tables. Default `memplane`. */
  databaseSchema?: string;
  /** The host config (`--config`, read with `readHostConfig`): provider packages, secret allow-lists, destinations, bindings. */
  config?: HostConfigInput;
  /** An old token file to import once, besides the data folder's `server-tokens.json` and `mcp-tokens.json`. */
  tokenFile?: string;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
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
  /**
   * Where lines for the operator go: a token store that fails, an old token file that could not be
   * imported. `memplane serve` writes them to standard error. Default: nowhere.
   */
  log?(line: string): void;
}

/** A running `memplane serve`: the server, the host under it (service and token store). */
export interface ServedMemplane {
  /** The HTTP server. */
  http: RunningMemplaneServer;
  /** The memory service. */
  service: MemoryService;
  /** The bearer tokens, in the service's database. */
  tokens: MemplaneTokenStore;
  /** The host: the service, its token store, its data folder and config, and the token files imported on open. */
  host: MemplaneHost;
  /** Stops the server, then closes the service (flushing the operation log). */
  close(): Promise<void>;
}

/**
 * Opens the host on a data folder (or Postgres) and serves it: the zero-config default of
 * `memplane serve`. Tokens are the host's, in the service's database, shared with `memplane-mcp`
 * and every other process on it. A company the service does not know gets a `default` markdown
 * binding at its first runtime write (capture, records, a hook); a read of it answers 404 and
 * creates nothing.
 */
export async function serveMemplane(options: ServeMemplaneOptions): Promise<ServedMemplane> {
  const log: MemplaneHostLog = (warning) => options.log?.(warning.message);
  const host = await openMemplaneHost({
    dataDirectory: options.dataDirectory,
    databaseUrl: options.databaseUrl,
    databaseSchema: options.databaseSchema,
    config: options.config,
    tokenFile: options.tokenFile,
    environment: options.environment,
    component: 'memplane-serve',
    log,
  });
  for (const imported of host.tokenImports) {
    options.log?.(`imported ${imported.imported} token(s) from ${imported.path}${imported.renamedTo === undefined ? '' : `, renamed to ${imported.renamedTo}`}`);
  }
  let http: RunningMemplaneServer;
  try {
    http = await startMemplaneServer({
      service: host.service,
      verifyToken: (token) => host.tokens.verify(token),
      knownCompanies: async () => (await host.tokens.list()).flatMap((record) => (record.role === 'operator' ? (record.companyIds ?? []) : [record.companyId])),
      prepareCompany: (companyId) => host.ensureDefaultBinding(companyId),
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.inspectorDirectory === undefined ? {} : { inspectorDirectory: options.inspectorDirectory }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  } catch (error) {
    await host.close();
    throw error;
  }
  return {
    http,
    service: host.service,
    tokens: host.tokens,
    host,
    async close() {
      await http.close();
      await host.close();
    },
  };
}
