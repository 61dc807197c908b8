import { MemoryValidationError } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, createTestService } from '../test-support/service-test-support';

const value = 'plain-credential-4b7e1d';

// Every plain-text credential shape of the issue, and more, each with the field it must be refused at.
const shapes: Array<[Record<string, unknown>, string]> = [
  [{ apiKey: value }, 'config.apiKey'],
  [{ apiKeys: [value, 'second-key-value'] }, 'config.apiKeys.0'],
  [{ API_KEY: value }, 'config.API_KEY'],
  [{ secret: value }, 'config.secret'],
  [{ secretAccessKey: value }, 'config.secretAccessKey'],
  [{ credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: value } }, 'config.credentials.accessKeyId'],
  [{ access_key: value }, 'config.access_key'],
  [{ token: value }, 'config.token'],
  [{ password: value }, 'config.password'],
  [{ auth: value }, 'config.auth'],
  [{ auth: { username: 'svc', password: value } }, 'config.auth.username'],
  [{ credential: value }, 'config.credential'],
  [{ headers: { Authorization: `Bearer ${value}` } }, 'config.headers.Authorization'],
  [{ headers: { authorization: `Token ${value}` } }, 'config.headers.authorization'],
  [{ headers: { 'X-Api-Key': value } }, 'config.headers.X-Api-Key'],
  [{ requestHeaders: [{ name: 'Cookie', cookie: value }] }, 'config.requestHeaders.0.cookie'],
  [{ endpoint: `https://kb.example.com/v1?api_key=${value}` }, 'config.endpoint'],
  [{ endpoint: `https://kb.example.com/v1?page=1&token=${value}` }, 'config.endpoint'],
  [{ endpoint: `https://kb.example.com/v1?key=${value}` }, 'config.endpoint'],
  [{ endpoint: `https://svc:${value}@kb.example.com/v1` }, 'config.endpoint'],
  [{ database: `postgres://app:${value}@db.example.com:5432/memory` }, 'config.database'],
  [{ database: `Server=db.example.com;Database=memory;User Id=app;Password=${value};` }, 'config.database'],
  [{ nested: { deeper: [{ clientSecret: value }] } }, 'config.nested.deeper.0.clientSecret'],
];

describe('plain-text credentials in a binding config', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  beforeEach(async () => {
    // A permissive plugin (no config schema), so only the credential rules stand in the way.
    ({ service, cleanUp } = await createTestService({
      providers: [{ providerId: 'kb', description: 'any config', capabilities: {}, create: () => createMemoryAdapter() }],
    }));
  });
  afterEach(async () => cleanUp());

  it('are refused at creation and change, naming the field, never echoing the value, saving and logging nothing', async () => {
    const admin = service.control(as(actors.acmeAdmin));
    const accepted: string[] = [];
    for (const [index, [config, field]] of shapes.entries()) {
      const error = await admin.createBinding({ key: `shape-${index}`, providerId: 'kb', config }).then(() => undefined, (thrown: unknown) => thrown);
      if (!MemoryValidationError.isInstance(error)) {
        accepted.push(JSON.stringify(config));
        continue;
      }
      expect(error.field).toBe(field);
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(value);
    }
    expect(accepted).toEqual([]);
    await admin.createBinding({ key: 'plain', providerId: 'kb', config: { region: 'eu' } });
    for (const [config] of shapes) {
      await expect(admin.updateBinding('plain', { config })).rejects.toBeInstanceOf(MemoryValidationError);
    }
    expect((await admin.listBindings()).map((binding) => binding.key)).toEqual(['plain']);
    expect(JSON.stringify((await admin.listActivity({ limit: 200 })).items)).not.toContain(value);
  });
});
