import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeServiceSecretKey, legacySecretReferencePaths, serviceSecretKey, toServiceSecretReferences } from './paperclip-secret-refs';

const path = fc.array(fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('.'));
const version = fc.oneof(fc.constant('latest' as const), fc.integer({ min: 1, max: 1_000_000 }));

describe('Paperclip secret references handed to the service', () => {
  it('the service key gives back exactly the reference and the path it was saved at (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), version, path, (secretId, chosen, configPath) => {
        const key = serviceSecretKey({ type: 'secret_ref', secretId, version: chosen }, configPath);
        expect(decodeServiceSecretKey(key)).toEqual({ ref: { type: 'secret_ref', secretId, version: chosen }, configPath });
      }),
    );
  });

  it('a key the plugin did not write is refused, never passed to the host (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (key) => {
        expect(() => decodeServiceSecretKey(key)).toThrow(/did not write/);
      }),
    );
    expect(() => decodeServiceSecretKey('paperclip-secret-ref:["not-a-uuid","latest","a"]')).toThrow(/did not write/);
    expect(() => decodeServiceSecretKey('paperclip-secret-ref:{')).toThrow(/did not write/);
  });

  it('replaces every secret_ref of a binding config with its key, at its own path, and leaves the rest', () => {
    const secretId = '3f9a2b1c-5d4e-4f6a-8b7c-0d1e2f3a4b5c';
    const config = { region: 'eu', headers: [{ value: { type: 'secret_ref', secretId } }], apiKey: { type: 'secret_ref', secretId, version: 3 } };
    const converted = toServiceSecretReferences(config, 'bindings.2.config') as Record<string, unknown>;
    expect(converted['region']).toBe('eu');
    const keyOf = (value: unknown) => decodeServiceSecretKey((value as { $secret: { key: string } }).$secret.key);
    expect(keyOf(converted['apiKey'])).toEqual({ ref: { type: 'secret_ref', secretId, version: 3 }, configPath: 'bindings.2.config.apiKey' });
    expect(keyOf((converted['headers'] as Array<{ value: unknown }>)[0]?.value)).toMatchObject({ configPath: 'bindings.2.config.headers.0.value' });
  });

  it('a reference too deep for the service key is a configuration error, not a cut key', () => {
    expect(() => serviceSecretKey({ type: 'secret_ref', secretId: '3f9a2b1c-5d4e-4f6a-8b7c-0d1e2f3a4b5c' }, 'a'.repeat(300))).toThrow(/too deep/);
  });

  it('finds a $secret at any depth, arrays included', () => {
    expect(legacySecretReferencePaths({ a: [{ b: { $secret: { env: 'X' } } }], c: { $secret: { key: 'k' } }, d: 'plain' })).toEqual([['a', 0, 'b'], ['c']]);
  });
});
