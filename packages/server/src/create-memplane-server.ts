import { OpenAPIHono } from '@hono/zod-openapi';
import { isKnownCompany, unknownCompanyError, type MemplaneTokenRecord } from '@memplane/host';
import type { MemoryCallContext, MemoryService } from '@memplane/service';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { actingAgentHeader, actorOf, grantReaches } from './server-actor';
import { buildOpenApiDocument, type OpenApiDocument } from './server-openapi';
import { problem, problemOf, type ServerProblem } from './server-problem';
import { queryRequest } from './server-query';
import { createTokenRateLimiter, type ServerRateLimitSettings } from './server-rate-limit';
import type { ServerRoute } from './server-route';
import { serveInspector } from './server-static';
import { controlRoutes } from './routes/control-routes';
import { explorerRoutes } from './routes/explorer-routes';
import { runtimeRoutes } from './routes/runtime-routes';
import { sessionRoutes } from './routes/session-routes';

/** Settings of {@link createMemplaneServer}. */
export interface MemplaneServerSettings {
  /** The memory service every call goes through; its policy authorises each one. */
  service: MemoryService;
  /**
   * Maps a bearer token to its record; undefined (unknown, revoked, expired) answers 401. When it
   * throws (a token store that cannot be reached), the caller gets the same 401, with nothing of
   * the cause, and the error goes to {@link MemplaneServerSettings.log}. An agent token bound to
   * a project (a `memplane-mcp` grant) is refused with 403: the API has no way to hold every
   * call of it to that project.
   */
  verifyToken(token: string): Promise<MemplaneTokenRecord | undefined>;
  /** The companies an operator of every company is shown by `GET /v1/session`. Default: none. */
  knownCompanies?(): Promise<string[]>;
  /**
   * Runs once per company before the first runtime write (capture, records, a hook) that a token
   * whose grant reaches it makes there, when the service does not know the company yet (the
   * zero-config default binding of `memplane serve`). Reads never run it: a read of a company
   * the service does not know answers 404 `MEMORY_NOT_FOUND`. Default: nothing.
   */
  prepareCompany?(companyId: string): Promise<void>;
  /**
   * Where lines for the operator go: what a caller must not be told, such as a token store that
   * fails (one line per problem, until a token is honoured again).
   * Default: nowhere.
   */
  log?(line: string): void;
  /** The largest request body, in bytes; larger ones get 413 before they are read whole. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Per-token rate limits; `false` turns them off. Default: 600 requests a minute, bursts of 60 (a tenth of the rate). */
  rateLimit?: ServerRateLimitSettings | false;
  /** The folder of the built inspector served at `/` and `/assets/*`; `false` serves none. Default: the one built into the package. */
  inspectorDirectory?: string | false;
  /** The clock of the rate limiter, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** A server built by {@link createMemplaneServer}: a Hono app to mount or serve. */
export interface MemplaneServer {
  /** The Hono app; `app.fetch` answers a `Request`. */
  app: OpenAPIHono;
  /** Every API route, as registered. */
  routes: readonly ServerRoute[];
  /** The OpenAPI 3.1 document served at `/openapi.json`. */
  openApiDocument(): OpenApiDocument;
}

/** Every API route, by surface. */
export const serverRoutes: readonly ServerRoute[] = [...sessionRoutes, ...runtimeRoutes, ...controlRoutes, ...explorerRoutes];

const bearerPattern = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;
const jsonMediaType = /^application\/(?:[a-z0-9.+-]*\+)?json\s*(?:;.*)?$/i;

function reply(c: Context, body: ServerProblem, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(body), body.status as 400, { 'content-type': 'application/problem+json', ...headers });
}

function clientOf(header: string | undefined): MemoryCallContext['client'] {
  if (header === undefined) return undefined;
  const slash = header.lastIndexOf('/');
  return slash > 0 ? { name: header.slice(0, slash), version: header.slice(slash + 1) } : { name: header };
}

/** The call context of a request: the token's actor, the path's company and the run and cost headers (the service checks each). */
function contextOf(c: Context, token: MemplaneTokenRecord, companyId: string | undefined): MemoryCallContext {
  const runId = c.req.header('memplane-run-id');
  const costEventId = c.req.header('memplane-cost-event-id');
  const attributionMode = c.req.header('memplane-attribution-mode');
  const client = clientOf(c.req.header('memplane-client'));
  return {
    actor: actorOf(token, companyId, c.req.header(actingAgentHeader)),
    ...(companyId === undefined ? {} : { companyId }),
    ...(runId === undefined ? {} : { heartbeatRunId: runId }),
    ...(costEventId === undefined ? {} : { costEventId }),
    ...(attributionMode === undefined ? {} : { attributionMode: attributionMode as MemoryCallContext['attributionMode'] }),
    ...(client === undefined ? {} : { client }),
  };
}

/**
 * A token check that never throws: a verifier that fails (a token store that cannot be reached)
 * refuses the token, and the operator hears of it once per problem, until a token
 * is honoured again. The caller's 401 says nothing of it.
 */
function tokenVerifier(verifyToken: MemplaneServerSettings['verifyToken'], log: MemplaneServerSettings['log']) {
  let reported: string | undefined;
  return async (token: string): Promise<MemplaneTokenRecord | undefined> => {
    try {
      const record = await verifyToken(token);
      if (record !== undefined) reported = undefined;
      return record;
    } catch (error) {
      const line = `tokens are refused: ${error instanceof Error ? error.message : String(error)}`;
      if (line !== reported) {
        reported = line;
        log?.(line);
      }
      return undefined;
    }
  };
}

/**
 * Builds the HTTP API over a memory service: Hono routes for the runtime, control-plane and
 * explorer surfaces (kept in separate modules), bearer-token auth, per-token rate limits, body
 * limits, problem details for every error, `/openapi.json`, `/healthz`, and the inspector.
 * Serve it with {@link startMemplaneServer}, or mount `app.fetch` in your own server.
 */
export function createMemplaneServer(settings: MemplaneServerSettings): MemplaneServer {
  const app = new OpenAPIHono();
  const maxBodyBytes = settings.maxBodyBytes ?? 1024 * 1024;
  const limiter = settings.rateLimit === false ? undefined : createTokenRateLimiter(settings.rateLimit, settings.now);
  // The companies named by issued tokens come from the token store too: if it fails, the session
  // lists none and the operator hears why, as a refused token does; the caller never sees a path.
  const knownCompanies = async (): Promise<string[]> => {
    try {
      return (await settings.knownCompanies?.()) ?? [];
    } catch (error) {
      settings.log?.(`the companies named by tokens cannot be listed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  };
  // A company once known stays known (bindings come and go, their history stays): only that is remembered.
  const known = new Set<string>();
  const isKnown = async (companyId: string): Promise<boolean> => {
    if (known.has(companyId)) return true;
    if (!(await isKnownCompany(settings.service, 'memplane-server', companyId))) return false;
    known.add(companyId);
    return true;
  };
  const prepared = new Map<string, Promise<void>>();
  const prepare = (companyId: string): Promise<void> => {
    if (settings.prepareCompany === undefined) return Promise.resolve();
    let pending = prepared.get(companyId);
    if (pending === undefined) {
      pending = settings.prepareCompany(companyId);
      // A failed preparation is tried again by the next call rather than remembered.
      pending.catch(() => prepared.delete(companyId));
      prepared.set(companyId, pending);
    }
    return pending;
  };
  const verify = tokenVerifier(settings.verifyToken, settings.log);

  app.onError((error, c) => {
    const { body, headers } = problemOf(error);
    return reply(c, body, headers);
  });
  app.notFound((c) => reply(c, problem(404, 'SERVER_ROUTE_NOT_FOUND', `No route ${c.req.method} ${c.req.path}.`)));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  const authenticate: MiddlewareHandler<{ Variables: { token: MemplaneTokenRecord } }> = async (c, next) => {
    const match = bearerPattern.exec(c.req.header('authorization')?.trim() ?? '');
    const token = match?.[1] === undefined ? undefined : await verify(match[1]);
    if (token === undefined) {
      const detail = match === null ? 'Send `Authorization: Bearer <token>`.' : 'The token is unknown, revoked or expired.';
      return reply(c, problem(401, 'SERVER_UNAUTHENTICATED', detail), { 'www-authenticate': 'Bearer realm="memplane"' });
    }
    // The routes take the project from each request; a token bound to one project would be
    // free of it here, so it is refused rather than widened.
    if (token.role === 'agent' && token.projectId !== undefined) {
      const detail = 'The token is bound to a project; this API serves tokens of a whole agent. Use it with memplane-mcp, or issue one without --project.';
      return reply(c, problem(403, 'MEMORY_SCOPE_VIOLATION', detail));
    }
    const decision = limiter?.take(token.id, token.requestsPerMinute);
    if (decision !== undefined && !decision.allowed) {
      return reply(c, problem(429, 'MEMORY_RATE_LIMITED', `The token's rate limit is reached; retry in ${decision.retryAfterSeconds} s.`, { retryable: true }), {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
    c.set('token', token);
    await next();
  };

  // Auth first: a client without a token learns nothing, not even the body limit, and sends no body we read.
  app.use('/v1/*', authenticate);
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => reply(c, problem(413, 'SERVER_BODY_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`)),
    }),
  );

  for (const route of serverRoutes) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const token = (c as unknown as Context<{ Variables: { token: MemplaneTokenRecord } }>).get('token');
      let body: unknown;
      if (route.body !== undefined) {
        const text = await c.req.text();
        if (text.trim() !== '') {
          if (!jsonMediaType.test(c.req.header('content-type') ?? '')) {
            return reply(c, problem(415, 'SERVER_UNSUPPORTED_MEDIA_TYPE', 'Send the body as `Content-Type: application/json`.'));
          }
          try {
            body = JSON.parse(text);
          } catch {
            return reply(c, problem(400, 'MEMORY_VALIDATION', 'The request body is not valid JSON.', { issues: [{ path: 'body', message: 'is not valid JSON' }] }));
          }
        } else if (route.bodyRequired !== false) {
          return reply(c, problem(400, 'MEMORY_VALIDATION', 'This endpoint needs a JSON body.', { issues: [{ path: 'body', message: 'is required' }] }));
        }
      }
      const params = c.req.param() as Record<string, string>;
      const companyId = params.companyId;
      // The actor first: a header the token may not send is refused (403) before anything else.
      const context = contextOf(c, token, companyId);
      // Only for a company the grant reaches: another company is the policy's to refuse (403), and
      // is never told whether it exists.
      if (companyId !== undefined && route.company !== 'any' && grantReaches(token, companyId) && !(await isKnown(companyId))) {
        // A write that would be refused as malformed starts nothing; the service names the field.
        if (route.company !== 'provisions') throw unknownCompanyError(companyId);
        if (route.body === undefined || route.body.safeParse(body).success) await prepare(companyId);
      }
      const result = await route.handle({
        service: settings.service,
        context,
        token,
        params,
        query: queryRequest(route.query, c.req.queries()),
        body,
        knownCompanies,
      });
      return c.json(result.body as object, result.status ?? 200);
    });
  }

  let document: OpenApiDocument | undefined;
  const openApiDocument = () => (document ??= buildOpenApiDocument(app, serverRoutes));
  app.get('/openapi.json', (c) => c.json(openApiDocument()));

  if (settings.inspectorDirectory !== false) serveInspector(app as unknown as Hono, settings.inspectorDirectory);

  return { app, routes: serverRoutes, openApiDocument };
}
