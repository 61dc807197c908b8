import { MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { assertNoPlainSecrets, checkSecretReferences, resolveSecrets } from './secret-reference';

const context = { companyId: 'acme', bindingKey: 'default' };

describe('secret references', () => {
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
    const allowedEnvironment = { acme: ['A', 'B'] };
    const resolved = await resolveSecrets(
      { apiKey: { $secret: { env: 'A' } }, nested: [{ token: { $secret: { key: 'vault/b' } } }], plain: 3 },
      { environment: { A: 'value-a' }, allowedEnvironment, resolver: (key, seen) => `${key}@${seen.companyId}` },
      context,
    );
    expect(resolved).toEqual({ config: { apiKey: 'value-a', nested: [{ token: 'vault/b@acme' }], plain: 3 }, values: ['value-a', 'vault/b@acme'] });
    await expect(resolveSecrets({ apiKey: { $secret: { env: 'B' } } }, { environment: {}, allowedEnvironment, resolver: undefined }, context)).rejects.toThrow(
      'config.apiKey refers to environment variable B, which is not set',
    );
    await expect(
      resolveSecrets({ apiKey: { $secret: { key: 'k' } } }, { environment: {}, allowedEnvironment, resolver: undefined }, context),
    ).rejects.toMatchObject({ rule: 'secret.resolver', field: 'config.apiKey' });
    const failing = () => {
      throw new TypeError('vault down');
    };
    await expect(
      resolveSecrets({ apiKey: { $secret: { key: 'k' } } }, { environment: {}, allowedEnvironment, resolver: failing }, context),
    ).rejects.toThrow('the secret resolver could not resolve "k" for company "acme"');
  });

  it('reads only the environment variables the operator allows for the company, at creation and at build', async () => {
    const environment = { ACME_KEY: 'acme-value', GLOBEX_KEY: 'globex-value', DATABASE_URL: 'postgres://u:p@db/x' };
    const sources = { environment, allowedEnvironment: { acme: ['ACME_KEY'] }, resolver: undefined };
    await expect(checkSecretReferences({ apiKey: { $secret: { env: 'ACME_KEY' } } }, sources, context)).resolves.toEqual(['acme-value']);
    for (const name of ['GLOBEX_KEY', 'DATABASE_URL', 'UNSET']) {
      const config = { headers: [{ value: { $secret: { env: name } } }] };
      for (const attempt of [() => checkSecretReferences(config, sources, context), () => resolveSecrets(config, sources, context)]) {
        const error = await attempt().then(() => undefined, (thrown: unknown) => thrown);
        expect(MemoryBindingRefusedError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ rule: 'secret.environment', field: 'config.headers.0.value', code: 'MEMORY_VALIDATION' });
        expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toMatch(/acme-value|globex-value|u:p@/);
      }
    }
    // Another company, no allow-list, an allow-list that throws: nothing is readable.
    await expect(checkSecretReferences({ k: { $secret: { env: 'ACME_KEY' } } }, sources, { ...context, companyId: 'globex' })).rejects.toMatchObject({ rule: 'secret.environment' });
    // The refusal names the setting that would allow it, so the admin knows what to ask the operator for.
    await expect(checkSecretReferences({ k: { $secret: { env: 'ACME_KEY' } } }, sources, { ...context, companyId: 'globex' })).rejects.toMatchObject({
      message: expect.stringContaining('secretEnvironment'),
    });
    await expect(checkSecretReferences({ k: { $secret: { env: 'ACME_KEY' } } }, { ...sources, allowedEnvironment: undefined }, context)).rejects.toMatchObject({ rule: 'secret.environment' });
    const throwing = () => {
      throw new Error('boom');
    };
    await expect(checkSecretReferences({ k: { $secret: { env: 'ACME_KEY' } } }, { ...sources, allowedEnvironment: throwing }, context)).rejects.toMatchObject({ rule: 'secret.environment' });
    // The resolver gets the company id and decides.
    const seen: unknown[] = [];
    const resolver = (key: string, of: { companyId: string }) => {
      seen.push([key, of.companyId]);
      if (!key.startsWith(`${of.companyId}/`)) throw new Error('not yours');
      return 'resolved';
    };
    await expect(checkSecretReferences({ k: { $secret: { key: 'acme/mem0' } } }, { ...sources, resolver }, context)).resolves.toEqual(['resolved']);
    await expect(checkSecretReferences({ k: { $secret: { key: 'globex/mem0' } } }, { ...sources, resolver }, context)).rejects.toMatchObject({ rule: 'secret.resolver' });
    expect(seen).toEqual([['acme/mem0', 'acme'], ['globex/mem0', 'acme']]);
  });
});
