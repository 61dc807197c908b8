import { provider as agentCoreProvider } from '@memplane/agentcore/provider';
import { provider as mem0Provider } from '@memplane/mem0/provider';
import { provider as supermemoryProvider } from '@memplane/supermemory/provider';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
beforeAll(async () => {
  harness = await startServerHarness({ rateLimit: false });
  // The hosted providers, as a host registers them from their packages' descriptions.
  const system = { actor: { kind: 'system', component: 'test' }, companyId: 'acme' } as const;
  for (const definition of [mem0Provider, supermemoryProvider, agentCoreProvider]) await harness.service.providers.register(system, definition);
});
afterAll(async () => harness.close());

const path = (providerId: string, companyId = 'acme') => `/v1/companies/${companyId}/control/providers/${encodeURIComponent(providerId)}`;

/** The value at a dotted path of an object. */
const at = (value: unknown, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)[key] : undefined), value);

describe('GET control/providers/{providerId}', () => {
  it('gives operators and company admins every provider with a JSON Schema its example satisfies, secrets as references', async () => {
    const listed = await harness.call('GET', '/v1/companies/acme/control/providers', { token: harness.token.adminAcme });
    const ids: string[] = listed.body.items.map((item: { providerId: string }) => item.providerId);
    expect(ids).toEqual(expect.arrayContaining(['agentcore', 'markdown', 'mem0', 'memory', 'supermemory']));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const providerId of ids) {
      for (const token of [harness.token.adminAcme, harness.token.operator, harness.token.opAcme]) {
        const answer = await harness.call('GET', path(providerId), { token });
        expect(answer.status, providerId).toBe(200);
        const { configSchema, configExample, secretFields } = answer.body;
        expect(answer.body).toMatchObject({ providerId, description: expect.any(String), origin: expect.stringMatching(/^(configured|registered)$/) });
        expect(ajv.validateSchema(configSchema), JSON.stringify(ajv.errors)).toBe(true);
        const validate = ajv.compile(configSchema);
        expect(validate(configExample), `${providerId}: ${JSON.stringify(validate.errors)}`).toBe(true);
        // Every secret field of the example is a reference to an environment variable, never a value.
        for (const field of secretFields as string[]) {
          const value = at(configExample, field);
          if (value !== undefined) expect(value, `${providerId} ${field}`).toEqual({ $secret: { env: expect.stringMatching(/^[A-Z][A-Z0-9_]*$/) } });
          expect(ajv.validate(at(configSchema, `properties.${field.split('.').join('.properties.')}`) as object, 'sk-plain-value'), `${providerId} ${field}`).toBe(false);
        }
      }
    }
  });

  it('describes the markdown config field by field, its cursor secret as a reference, and its example creates a binding', async () => {
    const answer = await harness.call('GET', path('markdown'), { token: harness.token.adminAcme });
    const { configSchema, configExample, secretFields } = answer.body;
    expect(configSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: { fusion: { enum: ['rrf', 'weighted'] }, root: { type: 'string' }, cursorSecret: { oneOf: expect.any(Array) } },
    });
    expect(secretFields).toEqual(['cursorSecret']);
    const created = await harness.call('POST', '/v1/companies/acme/control/bindings', { token: harness.token.adminAcme, body: { key: 'from-example', providerId: 'markdown', config: configExample } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.config).toEqual(configExample);
  });

  it('gives a hosted provider its secret fields as references in the schema its package derives', async () => {
    const answer = await harness.call('GET', path('agentcore'), { token: harness.token.operator });
    expect(answer.body).toMatchObject({ origin: 'registered' });
    expect(answer.body.secretFields).toEqual(['credentials.accessKeyId', 'credentials.secretAccessKey', 'credentials.sessionToken', 'cursorSecret']);
    expect(answer.body.configSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { credentials: { properties: { accessKeyId: { oneOf: expect.any(Array) } } } } });
    expect(answer.body.configExample).toMatchObject({ region: 'us-east-1', credentials: { secretAccessKey: { $secret: { env: 'AWS_SECRET_ACCESS_KEY' } } } });
    expect(JSON.stringify(answer.body)).not.toMatch(/AKIA|sk-/);
  });

  it('refuses agents, other companies and unknown providers', async () => {
    const agent = await harness.call('GET', path('markdown'), { token: harness.token.agentAcme });
    expect(agent.status).toBe(403);
    expect(agent.body).toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    const other = await harness.call('GET', path('markdown', 'globex'), { token: harness.token.adminAcme });
    expect(other.status).toBe(403);
    const unknown = await harness.call('GET', path('no-such-provider'), { token: harness.token.adminAcme });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'MEMORY_NOT_FOUND', detail: expect.stringContaining('markdown') });
  });

  it('is in the OpenAPI document with the shape it returns', async () => {
    const document = (await harness.call('GET', '/openapi.json', {})).body;
    const operation = document.paths['/v1/companies/{companyId}/control/providers/{providerId}'].get;
    expect(operation.operationId).toBe('control.describeProvider');
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(['companyId', 'providerId']));
    expect(Object.keys(operation.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['providerId', 'configSchema', 'configExample', 'secretFields']),
    );
  });
});
