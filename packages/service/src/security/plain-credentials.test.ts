import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryValidationError } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, createTestService, deterministicSettings } from '../test-support/service-test-support';

const value = 'plain-credential-4b7e1d';
// The value with only letters and digits, as some token formats take.
const alphanumeric = value.replace(/-/g, '');

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
  // A plain secret under `key`, and under names that end in one.
  [{ key: value }, 'config.key'],
  [{ keys: [value] }, 'config.keys.0'],
  [{ accountKey: value }, 'config.accountKey'],
  [{ storage: { subscription_key: value } }, 'config.storage.subscription_key'],
  [{ connection: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${value};` }, 'config.connection'],
  // A name/value pair whose name is a credential header carries the credential in its value.
  [{ headers: [{ name: 'X-Api-Key', value }] }, 'config.headers.0.value'],
  [{ headers: [{ key: 'Authorization', value }] }, 'config.headers.0.value'],
  // Known token shapes under any key, at any depth, in arrays and header values.
  [{ region: `sk-proj-${value}-0123456789` }, 'config.region'],
  [{ note: `ASIA${'IOSFODNN7EXAMPLE'}` }, 'config.note'],
  [{ labels: ['ok', `ghp_${alphanumeric}0123456789abcdefABCDEF`] }, 'config.labels.1'],
  [{ headers: { 'X-Custom': `github_pat_${alphanumeric}_0123456789abcdef` } }, 'config.headers.X-Custom'],
  [{ hooks: { slack: `xoxb-123456789012-${value}` } }, 'config.hooks.slack'],
  [{ deep: [{ deeper: { token_hint: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY21lIn0.c2lnbmF0dXJlLXZhbHVl' } }] }, 'config.deep.0.deeper.token_hint'],
  [{ endpoint: `https://kb.example.com/${`gho_${alphanumeric}0123456789abcdefABCDEF`}/search` }, 'config.endpoint'],
  // A token as a key is reported on its object, so the field never repeats it.
  [{ mapping: { [`sk-proj-${alphanumeric}0123456789`]: 'default' } }, 'config.mapping'],
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
      const thrown = JSON.stringify(error, Object.getOwnPropertyNames(error));
      for (const secret of [value, alphanumeric, 'IOSFODNN7EXAMPLE', 'c2lnbmF0dXJlLXZhbHVl']) expect(thrown).not.toContain(secret);
    }
    expect(accepted).toEqual([]);
    await admin.createBinding({ key: 'plain', providerId: 'kb', config: { region: 'eu' } });
    for (const [config] of shapes) {
      await expect(admin.updateBinding('plain', { config })).rejects.toBeInstanceOf(MemoryValidationError);
    }
    expect((await admin.listBindings()).map((binding) => binding.key)).toEqual(['plain']);
    expect(JSON.stringify((await admin.listActivity({ limit: 200 })).items)).not.toContain(value);
  });

  it('are not stored by a config that shows a reference while it is checked and the secret afterwards', async () => {
    const { service: guarded, cleanUp: close } = await createTestService({
      providers: [{ providerId: 'kb', description: 'any config', capabilities: {}, create: () => createMemoryAdapter() }],
      environment: { KB_KEY: 'resolved-value-1234' },
      secretEnvironment: { acme: ['KB_KEY'] },
    });
    try {
      const admin = guarded.control(as(actors.acmeAdmin));
      // However many reads the checks take, the value read after them is a plain secret.
      for (let honestReads = 1; honestReads <= 10; honestReads += 1) {
        let reads = 0;
        const config = {
          region: 'eu',
          get apiKey(): unknown {
            reads += 1;
            return reads <= honestReads ? { $secret: { env: 'KB_KEY' } } : value;
          },
        };
        await admin.createBinding({ key: `flip-${honestReads}`, providerId: 'kb', config }).catch((error: unknown) => {
          expect(MemoryValidationError.isInstance(error)).toBe(true);
        });
      }
      expect(JSON.stringify(await admin.listBindings())).not.toContain(value);
      expect(JSON.stringify((await admin.listActivity({ limit: 200 })).items)).not.toContain(value);
    } finally {
      await close();
    }
  });
});

// A made-up token of each known shape (core's credentialPatterns), random in its body.
const body = (length: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${length}}$`));
const knownToken = fc.oneof(
  body(24).map((rest) => `sk-proj-${rest}`),
  body(32).map((rest) => `sk-ant-api03-${rest}`),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), fc.stringMatching(/^[0-9A-Z]{16}$/)).map(([prefix, rest]) => prefix + rest),
  fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), body(36)).map(([prefix, rest]) => prefix + rest),
  body(40).map((rest) => `github_pat_11${rest.slice(0, 20)}_${rest.slice(20)}`),
  fc.tuple(fc.constantFrom('xoxb', 'xoxp', 'xoxa', 'xoxr'), body(24)).map(([prefix, rest]) => `${prefix}-123456789012-${rest}`),
  fc.tuple(body(20), body(30), body(24)).map(([header, payload, signature]) => `eyJ${header}.eyJ${payload}.${signature}`),
  body(35).map((rest) => `AIza${rest}`),
  body(24).map((rest) => `glpat-${rest}`),
);
// How the token sits in a value: alone, as a header value, in a URL, inside a sentence.
const planted = fc.constantFrom(
  (token: string) => token,
  (token: string) => `Bearer ${token}`,
  (token: string) => `https://kb.example.com/v1/${token}/search`,
  (token: string) => `use ${token} for the nightly job`,
);
// Any key name: ordinary ones, names of pairs and headers, and arbitrary identifiers.
const anyKey = fc.oneof(
  fc.constantFrom('region', 'note', 'labels', 'headers', 'X-Custom', 'value', 'name', 'key', 'items', 'options', 'mode'),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/),
);
const plainValue = fc.oneof(fc.stringMatching(/^[a-z0-9 .-]{0,16}$/), fc.integer(), fc.boolean(), fc.constant(null));
const randomConfig = fc.letrec<{ node: unknown; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, plainValue, tie('object'), fc.array(tie('node'), { maxLength: 3 })),
  object: fc.dictionary(anyKey, tie('node'), { maxKeys: 4 }),
})).object;

/** Every container of a config (its path): a value goes under a new key of an object, or at the end of an array. */
function containersOf(config: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof config !== 'object' || config === null) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(config) ? config.map((item, index) => [index, item]) : Object.entries(config);
  return [path, ...entries.flatMap(([step, item]) => containersOf(item, [...path, step]))];
}

/** The config with `value` put in the container at `container` (under `key` in an object), and the value's dotted field. */
function plantAt(config: Record<string, unknown>, container: Array<string | number>, key: string, value: string): { config: Record<string, unknown>; field: string } {
  const copy = structuredClone(config);
  let node: unknown = copy;
  for (const step of container) node = (node as Record<string | number, unknown>)[step];
  if (Array.isArray(node)) {
    node.push(value);
    return { config: copy, field: ['config', ...container, node.length - 1].join('.') };
  }
  (node as Record<string, unknown>)[key] = value;
  return { config: copy, field: ['config', ...container, key].join('.') };
}

describe('a value shaped like a known token, anywhere in a config', () => {
  let directory: string;
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is refused at creation and change, naming its field, and never reaches the bindings, the activity log or the SQLite file', async () => {
    directory = mkdtempSync(join(tmpdir(), 'memplane-tokens-'));
    const filename = join(directory, 'service.db');
    const service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename }),
      dataDirectory: directory,
      providers: [{ providerId: 'kb', description: 'any config', capabilities: {}, create: () => createMemoryAdapter() }],
      ...deterministicSettings(),
    });
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'plain', providerId: 'kb', config: { region: 'eu' } });
    const tokens: string[] = [];
    const sample = fc.tuple(randomConfig, knownToken, planted, anyKey).chain(([config, token, form, key]) =>
      fc.constantFrom(...containersOf(config)).map((container) => ({ ...plantAt(config, container, key, form(token)), token })),
    );
    try {
      await fc.assert(
        fc.asyncProperty(sample, async ({ config, field, token }) => {
          tokens.push(token);
          for (const attempt of [() => admin.createBinding({ key: 'tokened', providerId: 'kb', config }), () => admin.updateBinding('plain', { config })]) {
            const error = await attempt().then(() => undefined, (thrown: unknown) => thrown);
            expect(MemoryValidationError.isInstance(error), `accepted ${JSON.stringify(config)}`).toBe(true);
            expect((error as MemoryValidationError).issues.map((issue) => issue.path)).toContain(field);
            expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(token);
          }
        }),
        { numRuns: 100 },
      );
      expect((await admin.listBindings()).map((binding) => [binding.key, binding.config])).toEqual([['plain', { region: 'eu' }]]);
      expect(JSON.stringify((await admin.listActivity({ limit: 200 })).items)).not.toMatch(/sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox|eyJ|AIza|glpat-/);
    } finally {
      await service.close();
    }
    const bytes = ['', '-wal', '-shm'].map((suffix) => `${filename}${suffix}`).filter((file) => existsSync(file)).map((file) => readFileSync(file).toString('latin1'));
    for (const token of tokens) for (const content of bytes) expect(content.includes(token), 'a token reached the SQLite file').toBe(false);
  }, 60_000);
});
