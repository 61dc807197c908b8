import type { OpenAPIHono } from '@hono/zod-openapi';
import { identifierSchema } from '@memplane/core';
import { z } from 'zod';
import { serverProblemSchema } from './server-problem';
import { openApiPath, type ServerRoute } from './server-route';
import { VERSION } from './version';

/** The OpenAPI 3.1 document, as `/openapi.json` serves it. */
export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

type JsonSchema = Record<string, unknown>;

/**
 * Bodies are described with zod's own JSON Schema output (OpenAPI 3.1 schemas are JSON Schema
 * 2020-12): the service's schemas hold hand-checked parts (JSON metadata) that only zod knows
 * how to describe, as an object. Path and query parameters go through the registry's converter.
 */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // `z.custom` metadata checks come out empty; they accept JSON objects.
      if ((zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'custom') jsonSchema.type = 'object';
    },
  }) as JsonSchema;
  return rest;
}

const problemContent = { 'application/problem+json': { schema: jsonSchemaOf(serverProblemSchema) as never } };
const errorResponses = {
  400: { description: 'Malformed body (not JSON) or bad cursor.', content: problemContent },
  401: { description: 'Missing, unknown, revoked or expired token.', content: problemContent },
  403: { description: 'The policy refused the call (another company, an operation the actor may not use).', content: problemContent },
  404: { description: 'No such binding, operation or record; or no binding resolves.', content: problemContent },
  413: { description: 'The body is larger than the limit.', content: problemContent },
  415: { description: 'The body is not `application/json`.', content: problemContent },
  422: { description: 'The request failed validation (`issues` names each field), or the binding lacks the capability.', content: problemContent },
  429: { description: 'The token\'s rate limit, or the provider\'s; see `Retry-After`.', content: problemContent },
  502: { description: 'The provider failed or answered something invalid.', content: problemContent },
  504: { description: 'The provider did not answer in time.', content: problemContent },
};

const runHeaders = z.object({
  'memplane-run-id': identifierSchema.optional().describe('The heartbeat run the call belongs to (logged, used for cost attribution).'),
  'memplane-cost-event-id': identifierSchema.optional().describe('A cost event the host already recorded for this work.'),
  'memplane-attribution-mode': z.enum(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']).optional(),
  'memplane-client': z.string().optional().describe('The program calling, `name/version`, logged as a label (never an identity).'),
  'memplane-agent-id': identifierSchema.optional().describe('The agent the call runs as; only for an operator token issued with `--act-as-agents` (or an agent token naming itself), else 403.'),
});

/** Registers every route in the app's OpenAPI registry and generates the 3.1 document. */
export function buildOpenApiDocument(app: OpenAPIHono, routes: readonly ServerRoute[]): OpenApiDocument {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'A token from `memplane token issue`.' });
  for (const route of routes) {
    const path = openApiPath(route.path);
    const params = path.includes('{companyId}') ? z.object({ companyId: identifierSchema, ...route.params?.shape }) : route.params;
    app.openAPIRegistry.registerPath({
      method: route.method,
      path,
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      security: [{ bearer: [] }],
      request: {
        ...(params === undefined ? {} : { params }),
        ...(route.query === undefined ? {} : { query: route.query }),
        ...(path.includes('{companyId}') ? { headers: runHeaders } : {}),
        ...(route.body === undefined
          ? {}
          : { body: { required: route.bodyRequired !== false, content: { 'application/json': { schema: jsonSchemaOf(route.body) as never } } } }),
      },
      responses: {
        [route.success.status]: {
          description: route.success.description,
          content: { 'application/json': { schema: (route.success.schema === undefined ? { type: 'object' } : jsonSchemaOf(route.success.schema)) as never } },
        },
        ...errorResponses,
      },
    });
  }
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/healthz',
    operationId: 'server.health',
    summary: 'Liveness, without a token.',
    tags: ['server'],
    responses: { 200: { description: 'The server is up.', content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } as never } } } },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'server.openapi',
    summary: 'This document, without a token.',
    tags: ['server'],
    responses: { 200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } as never } } } },
  });
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'memplane',
      version: VERSION,
      description: 'The memplane memory service over HTTP. Every `/v1` call needs `Authorization: Bearer <token>`; errors are RFC 9457 problem details carrying the MemoryError code.',
    },
  });
}
