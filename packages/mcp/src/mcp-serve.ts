import { openMemplaneHost, type HostConfigInput, type MemplaneHost } from '@memplane/host';
import { agentTokenVerifier } from './mcp-agent-token';
import type { McpBoundScope } from './mcp-bound-scope';
import { startMemplaneMcpHttpServer } from './mcp-http-server';
import { createMemplaneMcpServer } from './mcp-server';
import { McpStdioTransport } from './mcp-stdio-transport';

/** How `memplane-mcp` serves: where the data is, its config, and on which transport. */
export interface McpServeOptions {
  /** The data folder: SQLite (with the token table), markdown memory and the cursor secret. Created when missing. */
  dataDirectory: string;
  /** The host config (`--config`, read with `readHostConfig` of `@memplane/host`): provider packages, secret allow-lists, destinations, bindings. */
  config?: HostConfigInput;
  /** Keep the service (and the tokens) in this Postgres database. */
  postgresUrl?: string;
  /** The Postgres schema of its tables. */
  postgresSchema?: string;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Resolves when the server should stop (a signal, the client hanging up). */
  stopped: Promise<void>;
  /** Where progress lines go (never stdout on stdio: that is the protocol channel). */
  log(line: string): void;
}

/** The stdio transport: one client, one bound scope. */
export interface McpStdioServe extends McpServeOptions {
  /** `stdio`. */
  transport: 'stdio';
  /** The scope the one session is bound to. */
  scope: McpBoundScope;
}

/** The Streamable HTTP transport: many clients, each scoped by its bearer token. */
export interface McpHttpServe extends McpServeOptions {
  /** `http`. */
  transport: 'http';
  /** The address to bind (`127.0.0.1`). */
  host: string;
  /** The port (8765; 0 picks a free one). */
  port: number;
  /** `Host` names accepted; required off loopback. */
  allowedHosts?: string[];
  /** Browser origins accepted besides loopback ones. */
  allowedOrigins?: string[];
  /** An old token file to import once, besides the data folder's `mcp-tokens.json` and `server-tokens.json`. */
  tokenFile?: string;
}

async function capabilitiesOf(host: MemplaneHost, scope: McpBoundScope) {
  try {
    return (await host.service.control({ actor: { kind: 'system', component: 'memplane-mcp' }, companyId: scope.companyId }).resolve(scope.agentId)).binding.capabilities;
  } catch {
    // No binding resolves (a config without a default): the six tools are offered, and each call says what is missing.
    return {};
  }
}

/**
 * Opens the host (the service on the data folder or Postgres, with the config applied, and the
 * token store) and serves until `stopped` resolves, then closes everything (the operation log
 * is flushed by closing the service).
 */
export async function serveMcp(options: McpStdioServe | McpHttpServe): Promise<void> {
  const host = await openMemplaneHost({
    dataDirectory: options.dataDirectory,
    config: options.config,
    databaseUrl: options.postgresUrl,
    databaseSchema: options.postgresSchema,
    environment: options.environment,
    tokenFile: options.transport === 'http' ? options.tokenFile : undefined,
    component: 'memplane-mcp',
    log: (warning) => options.log(`memplane-mcp: ${warning.message}`),
  });
  try {
    for (const imported of host.tokenImports) {
      options.log(`memplane-mcp: imported ${imported.imported} token(s) from ${imported.path}${imported.renamedTo === undefined ? '' : `, renamed to ${imported.renamedTo}`}`);
    }
    if (options.transport === 'stdio') {
      // The command names the company it serves: starting it is that company's explicit start (zero-config).
      await host.ensureDefaultBinding(options.scope.companyId);
      const server = createMemplaneMcpServer({ service: host.service, scope: options.scope, capabilities: await capabilitiesOf(host, options.scope) });
      const closed = new Promise<void>((resolveClosed) => (server.onclose = resolveClosed));
      await server.connect(new McpStdioTransport());
      options.log(`memplane-mcp: serving agent ${options.scope.agentId} of company ${options.scope.companyId} on stdio`);
      await Promise.race([options.stopped, closed]);
      await server.close();
    } else {
      const http = await startMemplaneMcpHttpServer({
        service: host.service,
        verifyToken: agentTokenVerifier(host.tokens),
        prepareCompany: (companyId) => host.ensureDefaultBinding(companyId),
        log: options.log,
        host: options.host,
        port: options.port,
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
      });
      options.log(`memplane-mcp: listening on ${http.url}`);
      await options.stopped;
      await http.close();
    }
  } finally {
    await host.close();
  }
}
