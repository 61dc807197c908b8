import { createMemoryService } from '@memplane/service';
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

describe('/openapi.json', () => {
  it('is an OpenAPI 3.1 document served without a token', async () => {
    const response = await server.app.request('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document).toEqual(JSON.parse(JSON.stringify(server.openApiDocument())));
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
      ['agentId', 'bindingKey', 'cursor', 'from', 'issueId', 'limit', 'operation', 'projectId', 'runId', 'sourceKind', 'status', 'to'].sort(),
    );
  });
});
