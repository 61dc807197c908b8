import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryValidationError, parseInput, type MemoryAdapterCapabilities } from '@memplane/core';
import { isKnownCompany } from '@memplane/host';
import type { MemoryService } from '@memplane/service';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { McpTokenScope } from './mcp-agent-token';
import type { McpBoundScope } from './mcp-bound-scope';
import { bearerTokenOf, hostAllowed, isLoopbackAddress, loopbackHostnames, originAllowed, refuse } from './mcp-http-guards';
import { McpHttpSessions } from './mcp-http-sessions';
import { createMemplaneMcpServer, type McpCompanyProvisioning } from './mcp-server';

/** Settings of {@link startMemplaneMcpHttpServer}. */
export interface MemplaneMcpHttpOptions {
  /** The memory service every call goes through. */
  service: MemoryService;
  /**
   * Maps a bearer token to the company and agent it acts as; undefined refuses it (401). When it
   * throws (a token store that cannot be reached), the caller gets the same 401, with nothing of
   * the cause, and the error goes to {@link MemplaneMcpHttpOptions.log}. Over the host's token
   * store, `agentTokenVerifier(host.tokens)`.
   */
  verifyToken(token: string): Promise<McpTokenScope | undefined>;
  /**
   * Runs once per company, just before the first `memory_note` written there while the service
   * does not know the company (no binding, no binding history): the zero-config default binding.
   * Opening a session and the read tools never run it; in an unknown company they answer
   * `MEMORY_NOT_FOUND`. Default: nothing.
   */
  prepareCompany?(companyId: string): Promise<void>;
  /**
   * Where lines for the operator go: what a caller must not be told, such as a token store that
   * fails (one line per problem, until a token is honoured again).
   * `memplane-mcp` writes them to standard error. Default: nowhere.
   */
  log?(line: string): void;
  /** The address to bind. Default `127.0.0.1`. */
  host?: string;
  /** The port; 0 picks a free one. Default 8765. */
  port?: number;
  /** The path of the endpoint. Default `/mcp`. */
  path?: string;
  /**
   * The `Host` names accepted (port-agnostic). Default: the loopback names when bound to
   * loopback. Binding anywhere else requires naming them.
   */
  allowedHosts?: string[];
  /** Exact browser origins accepted besides loopback ones (`https://app.example.com`). Default none. */
  allowedOrigins?: string[];
  /** The most sessions open at once, all tokens together; more are refused with 503. Default 100. */
  maxSessions?: number;
  /**
   * The most sessions one token may have open at once; its next `initialize` is refused with 429
   * (and `Retry-After` when one of its sessions is idle), while other tokens still open theirs.
   * Default 16.
   */
  maxSessionsPerToken?: number;
  /**
   * How long a session may go without a new request before it is closed, in milliseconds; its id
   * then reads as unknown (404). A request still being answered, an open event stream included,
   * keeps it open. Default 1 800 000 (30 minutes).
   */
  sessionIdleTimeoutMs?: number;
  /** The clock the idle timeout reads, in milliseconds. Default `Date.now`; tests pass their own. */
  now?: () => number;
}

/** The default of {@link MemplaneMcpHttpOptions.maxSessionsPerToken}. */
export const defaultMaxSessionsPerToken = 16;
/** The default of {@link MemplaneMcpHttpOptions.sessionIdleTimeoutMs}: 30 minutes. */
export const defaultSessionIdleTimeoutMs = 30 * 60 * 1000;

const sessionLimitsSchema = z.strictObject({
  maxSessions: z.number().int().min(1).max(1_000_000).optional(),
  maxSessionsPerToken: z.number().int().min(1).max(1_000_000).optional(),
  sessionIdleTimeoutMs: z.number().int().min(1).max(2_147_483_647).optional(),
});

/** A running HTTP endpoint. */
export interface MemplaneMcpHttpServer {
  /** The endpoint's URL, such as `http://127.0.0.1:8765/mcp`. */
  url: string;
  /** Closes every session and the listener. */
  close(): Promise<void>;
}

/**
 * Serves the MCP tools over Streamable HTTP. Every request passes, in order: the `Host` check
 * and the `Origin` check (DNS rebinding), the bearer token (401 without a valid one), and for
 * an open session the token that opened it (403 for any other token, so a session id never
 * carries one company's scope to another token). Each session is bound to its token's
 * company and agent, and the client that opened it. One token holds at most
 * `maxSessionsPerToken` sessions (429 past it), the server at most `maxSessions` (503), and a
 * session unused for `sessionIdleTimeoutMs` is closed.
 */
export async function startMemplaneMcpHttpServer(options: MemplaneMcpHttpOptions): Promise<MemplaneMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const limits = parseInput(
    sessionLimitsSchema,
    {
      ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
      ...(options.maxSessionsPerToken === undefined ? {} : { maxSessionsPerToken: options.maxSessionsPerToken }),
      ...(options.sessionIdleTimeoutMs === undefined ? {} : { sessionIdleTimeoutMs: options.sessionIdleTimeoutMs }),
    },
    'HTTP server settings',
  );
  const idleTimeoutMs = limits.sessionIdleTimeoutMs ?? defaultSessionIdleTimeoutMs;
  const loopback = isLoopbackAddress(host);
  if (!loopback && (options.allowedHosts === undefined || options.allowedHosts.length === 0)) {
    throw new MemoryValidationError({
      target: 'HTTP server settings',
      issues: [{ path: 'allowedHosts', message: `is required when binding ${host}, which is not loopback: name the hostnames clients use` }],
    });
  }
  const allowedHosts = (options.allowedHosts ?? [...loopbackHostnames]).map((name) => name.toLowerCase());
  const allowedOrigins = options.allowedOrigins ?? [];
  const sessions = new McpHttpSessions({
    maxSessions: limits.maxSessions ?? 100,
    maxSessionsPerToken: limits.maxSessionsPerToken ?? defaultMaxSessionsPerToken,
    idleTimeoutMs,
    now: options.now ?? Date.now,
  });
  const prepared = new Map<string, Promise<void>>();
  // A company once known stays known (bindings come and go, their history stays): only that is remembered.
  const known = new Set<string>();

  /** How a session of `companyId` treats the company while the service does not know it. */
  function provisioningOf(companyId: string): McpCompanyProvisioning {
    return {
      async isKnown() {
        if (known.has(companyId)) return true;
        if (!(await isKnownCompany(options.service, 'memplane-mcp', companyId))) return false;
        known.add(companyId);
        return true;
      },
      provision() {
        let prepare = prepared.get(companyId);
        if (prepare === undefined) {
          prepare = options.prepareCompany?.(companyId) ?? Promise.resolve();
          prepared.set(companyId, prepare);
          // A failed preparation is tried again by the next write, not remembered.
          prepare.catch(() => prepared.delete(companyId));
        }
        return prepare;
      },
    };
  }

  let reportedTokenProblem: string | undefined;
  /** The token check, never throwing: a verifier that fails refuses the token, and the operator hears of it once per problem. */
  async function verify(token: string): Promise<McpTokenScope | undefined> {
    try {
      const scope = await options.verifyToken(token);
      if (scope !== undefined) reportedTokenProblem = undefined;
      return scope;
    } catch (error) {
      const line = `memplane-mcp: tokens are refused: ${error instanceof Error ? error.message : String(error)}`;
      if (line !== reportedTokenProblem) {
        reportedTokenProblem = line;
        options.log?.(line);
      }
      return undefined;
    }
  }

  async function capabilitiesOf(scope: McpBoundScope): Promise<MemoryAdapterCapabilities> {
    try {
      const control = options.service.control({ actor: { kind: 'system', component: 'memplane-mcp' }, companyId: scope.companyId });
      return (await control.resolve(scope.agentId)).binding.capabilities;
    } catch {
      // No binding yet (a company not started, or one without a default): the six tools are
      // offered, and each call says what is missing.
      return {};
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostAllowed(request.headers.host, allowedHosts)) return refuse(response, 403, 'Forbidden: the Host header is not an allowed name');
    if (!originAllowed(request.headers.origin, allowedOrigins, loopback)) return refuse(response, 403, 'Forbidden: the Origin is not allowed');
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return refuse(response, 404, 'Not found');
    const token = bearerTokenOf(request);
    const scope = token === undefined ? undefined : await verify(token);
    if (scope === undefined) {
      return refuse(response, 401, 'Unauthorized: a valid bearer token is required', {
        'www-authenticate': `Bearer error="invalid_token", error_description="${token === undefined ? 'missing bearer token' : 'unknown, revoked or expired token'}"`,
      });
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.find(sessionId);
      if (session === undefined) return refuse(response, 404, 'Session not found');
      if (session.tokenId !== scope.tokenId) return refuse(response, 403, 'Forbidden: the session belongs to another token');
      sessions.use(session, response);
      return session.transport.handleRequest(request, response);
    }
    const reservation = sessions.reserve(scope.tokenId);
    if (!('release' in reservation)) {
      return refuse(response, reservation.status, reservation.message, reservation.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reservation.retryAfterSeconds) });
    }
    try {
      const { tokenId, ...bound } = scope;
      const server = createMemplaneMcpServer({
        service: options.service,
        scope: bound,
        capabilities: await capabilitiesOf(bound),
        company: provisioningOf(bound.companyId),
      });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.add(id, { transport, server, tokenId }, response, reservation),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.remove(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(request, response);
      // A first request that was not an initialize opened no session: nothing to keep.
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
    } finally {
      reservation.release();
    }
  }

  const listener = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolveListen, rejectListen) => {
    listener.once('error', rejectListen);
    listener.listen(options.port ?? 8765, host, () => resolveListen());
  });
  // Idle sessions are also closed when nobody asks for a new one; the timer never keeps the process alive.
  const sweeper = setInterval(() => sessions.expireIdle(), Math.min(idleTimeoutMs, 60_000));
  sweeper.unref();
  const address = listener.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${path}`,
    async close() {
      clearInterval(sweeper);
      await sessions.closeAll();
      listener.closeAllConnections();
      await new Promise<void>((resolveClose) => listener.close(() => resolveClose()));
    },
  };
}
