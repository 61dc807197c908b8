import { createMemoryService, type MemoryService } from '@memplane/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsOtherFields, configFields } from './config-fields';

// The descriptions the server hands out, from the service's own provider definitions.
let service: MemoryService;
beforeAll(async () => {
  service = await createMemoryService();
});
afterAll(async () => service.close());

const describeProvider = (providerId: string) => {
  const description = service.providers.describe(providerId);
  if (description === undefined) throw new TypeError(`no provider ${providerId}`);
  return description;
};

describe('config fields', () => {
  it('lists the markdown settings with their types and limits, the cursor secret as a reference', () => {
    const { configSchema, secretFields } = describeProvider('markdown');
    const fields = configFields(configSchema, secretFields);
    expect(fields.map((field) => field.path)).toEqual([
      'root',
      'fusion',
      'sectionsPerFile',
      'lockTimeoutMs',
      'cursorSecret',
      'lexicalWeights',
      'lexicalWeights.body',
      'lexicalWeights.context',
      'lexicalWeights.metadata',
    ]);
    expect(fields.find((field) => field.path === 'fusion')).toEqual({ path: 'fusion', type: 'one of rrf, weighted', required: false, notes: [] });
    expect(fields.find((field) => field.path === 'sectionsPerFile')).toMatchObject({ type: 'integer', notes: ['at least 1', 'at most 100000'] });
    expect(fields.find((field) => field.path === 'root')).toMatchObject({ type: 'string', notes: ['at least 1 character', 'at most 4096 characters'] });
    expect(fields.find((field) => field.path === 'cursorSecret')).toMatchObject({ type: 'secret reference', notes: [] });
    expect(acceptsOtherFields(configSchema)).toBe(false);
  });

  it('lists a hosted provider’s secret fields, nested ones by their dotted path, and says its package checks the rest', () => {
    const { configSchema, secretFields } = describeProvider('agentcore');
    expect(configFields(configSchema, secretFields)).toEqual([
      { path: 'credentials', type: 'object', required: false, notes: [] },
      { path: 'credentials.accessKeyId', type: 'secret reference', required: false, notes: [] },
      { path: 'credentials.secretAccessKey', type: 'secret reference', required: false, notes: [] },
      { path: 'credentials.sessionToken', type: 'secret reference', required: false, notes: [] },
    ]);
    expect(acceptsOtherFields(configSchema)).toBe(true);
  });

  it('marks required fields, and reads lists, maps and unions', () => {
    const fields = configFields({
      type: 'object',
      required: ['token'],
      properties: {
        token: { oneOf: [{ properties: { $secret: {} } }, { properties: { $secret: {} } }] },
        tags: { type: 'array', items: { type: 'string' } },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: 10 },
      },
    });
    expect(fields).toEqual([
      { path: 'token', type: 'secret reference', required: true, notes: [] },
      { path: 'tags', type: 'list of string', required: false, notes: [] },
      { path: 'headers', type: 'map of string', required: false, notes: [] },
      { path: 'limit', type: 'integer or null', required: false, notes: ['default 10'] },
    ]);
  });
});
