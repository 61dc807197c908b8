import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { assertNoPlainSecrets, isSecretReference, resolveSecrets } from './secret-reference';

const context = { companyId: 'acme', bindingKey: 'default' };

describe('secret references', () => {
  it('recognises only the two reference shapes', () => {
    expect(isSecretReference({ $secret: { env: 'A' } })).toBe(true);
    expect(isSecretReference({ $secret: { key: 'vault/a' } })).toBe(true);
    for (const value of [{ $secret: { env: '' } }, { $secret: { env: 'A', key: 'b' } }, { $secret: 'A' }, { $secret: { env: 'A' }, other: 1 }, 'A', null]) {
      expect(isSecretReference(value)).toBe(false);
    }
  });

  it('refuses plain secrets by declared field and by key name, reporting every field and no value', () => {
    const error = (() => {
      try {
        assertNoPlainSecrets({ apiKey: 'v1', region: 'eu', auth: { password: 'v2', bearerToken: 'v3' }, list: [{ secret: 'v4' }], credentials: { accessKeyId: 'v5' } }, [
          'credentials.accessKeyId',
        ]);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MemoryValidationError);
    expect((error as MemoryValidationError).issues.map((issue) => issue.path)).toEqual([
      'config.apiKey',
      'config.auth.password',
      'config.auth.bearerToken',
      'config.list.0.secret',
      'config.credentials.accessKeyId',
    ]);
    expect((error as Error).message).not.toMatch(/v[1-5]/);
    expect(() => assertNoPlainSecrets({ apiKey: { $secret: { env: 'A' } }, tokenLimit: 5, region: 'eu' })).not.toThrow();
  });

  it('resolves environment and resolver references deeply, and names the missing one', async () => {
    const resolved = await resolveSecrets(
      { apiKey: { $secret: { env: 'A' } }, nested: [{ token: { $secret: { key: 'vault/b' } } }], plain: 3 },
      { environment: { A: 'value-a' }, resolver: (key, seen) => `${key}@${seen.companyId}` },
      context,
    );
    expect(resolved).toEqual({ apiKey: 'value-a', nested: [{ token: 'vault/b@acme' }], plain: 3 });
    await expect(resolveSecrets({ apiKey: { $secret: { env: 'B' } } }, { environment: {}, resolver: undefined }, context)).rejects.toThrow(
      'config.apiKey refers to environment variable B, which is not set',
    );
    await expect(resolveSecrets({ apiKey: { $secret: { key: 'k' } } }, { environment: {}, resolver: undefined }, context)).rejects.toBeInstanceOf(
      MemoryConfigurationError,
    );
    const failing = () => {
      throw new TypeError('vault down');
    };
    await expect(resolveSecrets({ apiKey: { $secret: { key: 'k' } } }, { environment: {}, resolver: failing }, context)).rejects.toThrow(
      'could not resolve "k" for config.apiKey',
    );
  });
});
