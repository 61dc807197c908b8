import { join } from 'node:path';
import type { MemoryService } from '@memplane/service';
import { ensureDefaultBinding } from './mcp-bindings-config';
import type { McpBoundScope } from './mcp-bound-scope';
import { openEmbeddedService } from './mcp-embedded-service';
import { startMemplaneMcpHttpServer } from './mcp-http-server';
import { createMemplaneMcpServer } from './mcp-server';
import { McpStdioTransport } from './mcp-stdio-transport';
import { openMcpTokenFile, tokenFileName } from './mcp-token-file';

/** How `memplane-mcp` serves: where the data is, and on which transport. */
export interface McpServeOptions {
  /** The data folder (see `openEmbeddedService`). */
  dataDirectory: string;
  /** A config file of bindings applied at start. */
  configFile?: string;
  /** Keep the service in this Postgres database. */
  postgresUrl?: string;
  /** The Postgres schema of its tables. */
  postgresSchema?: string;
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
  /** The token file; default `<dataDirectory>/mcp-tokens.json`. */
  tokenFile?: string;
}

async function capabilitiesOf(service: MemoryService, scope: McpBoundScope) {
  try {
    return (await service.control({ actor: { kind: 'system', component: 'memplane-mcp' }, companyId: scope.companyId }).resolve(scope.agentId)).binding.capabilities;
  } catch {
    // No binding resolves (a config without a default): the six tools are offered, and each call says what is missing.
    return {};
  }
}

/**
 * Opens the embedded service and serves until `stopped` resolves, then closes everything (the
 * operation log is flushed by `service.close()`).
 */
export async function serveMcp(options: McpStdioServe | McpHttpServe): Promise<void> {
  const service = await openEmbeddedService({
    dataDirectory: options.dataDirectory,
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.postgresUrl === undefined ? {} : { postgresUrl: options.postgresUrl }),
    ...(options.postgresSchema === undefined ? {} : { postgresSchema: options.postgresSchema }),
  });
  try {
    if (options.transport === 'stdio') {
      // The command names the company it serves: starting it is that company's explicit start (zero-config).
      await ensureDefaultBinding(service, options.scope.companyId);
      const server = createMemplaneMcpServer({ service, scope: options.scope, capabilities: await capabilitiesOf(service, options.scope) });
      const closed = new Promise<void>((resolveClosed) => (server.onclose = resolveClosed));
      await server.connect(new McpStdioTransport());
      options.log(`memplane-mcp: serving agent ${options.scope.agentId} of company ${options.scope.companyId} on stdio`);
      await Promise.race([options.stopped, closed]);
      await server.close();
    } else {
      const tokens = openMcpTokenFile(options.tokenFile ?? join(options.dataDirectory, tokenFileName));
      const http = await startMemplaneMcpHttpServer({
        service,
        verifyToken: (token) => tokens.verify(token),
        prepareCompany: (companyId) => ensureDefaultBinding(service, companyId),
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
    await service.close();
  }
}
