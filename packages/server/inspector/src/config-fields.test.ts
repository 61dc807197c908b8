import { provider as agentCoreProvider } from '@memplane/agentcore/provider';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService, type MemoryService } from '@memplane/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsOtherFields, configFields } from './config-fields';

// The descriptions the server hands out, from the providers' own packages.
let service: MemoryService;
beforeAll(async () => {
  service = await createMemoryService({ providers: [markdownProvider, agentCoreProvider] });
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
      'extraction',
      'extraction.assistantTurns',
      'fusion',
      'lexicalWeights',
      'lexicalWeights.body',
      'lexicalWeights.context',
      'lexicalWeights.metadata',
      'neighbourWindows',
      'sectionsPerFile',
      'lockTimeoutMs',
      'cursorSecret',
    ]);
    expect(fields.find((field) => field.path === 'fusion')).toEqual({ path: 'fusion', type: 'one of rrf, weighted', required: false, notes: [] });
    expect(fields.find((field) => field.path === 'sectionsPerFile')).toMatchObject({ type: 'integer', notes: ['at least 1', 'at most 100000'] });
    expect(fields.find((field) => field.path === 'root')).toMatchObject({ type: 'string', notes: ['at least 1 character'] });
    expect(fields.find((field) => field.path === 'neighbourWindows')).toMatchObject({ type: 'boolean', required: false });
    expect(fields.find((field) => field.path === 'cursorSecret')).toMatchObject({ type: 'secret reference', notes: [] });
    expect(acceptsOtherFields(configSchema)).toBe(false);
  });

  it('lists a hosted provider’s settings as its package derives them, nested secret fields by their dotted path', () => {
    const { configSchema, secretFields } = describeProvider('agentcore');
    const fields = configFields(configSchema, secretFields);
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: 'memoryId', type: 'string', required: true, notes: [] },
        { path: 'credentials', type: 'object', required: false, notes: [] },
        { path: 'credentials.accessKeyId', type: 'secret reference', required: true, notes: [] },
        { path: 'credentials.secretAccessKey', type: 'secret reference', required: true, notes: [] },
        { path: 'credentials.sessionToken', type: 'secret reference', required: false, notes: [] },
        { path: 'cursorSecret', type: 'secret reference', required: false, notes: [] },
      ]),
    );
    expect(fields.map((field) => field.path)).not.toContain('client');
    expect(acceptsOtherFields(configSchema)).toBe(false);
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
