import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHostConfig, readHostConfig } from './read-host-config';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-host-config-'));
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

/** The issue path of the validation error a config throws. */
function refusal(config: unknown): string {
  try {
    parseHostConfig(config);
  } catch (error) {
    expect(MemoryValidationError.isInstance(error)).toBe(true);
    return (error as MemoryValidationError).issues[0]?.path ?? '';
  }
  throw new Error(`accepted: ${JSON.stringify(config)}`);
}

// The example of the memplane-mcp README, as operators wrote it before the host config.
const mcpBindingsFile = {
  secretEnvironment: { acme: ['MEM0_API_KEY'] },
  companies: {
    acme: {
      bindings: [
        { key: 'default', providerId: 'markdown' },
        { key: 'mem0-prod', providerId: 'mem0', config: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } } },
      ],
      default: 'default',
      agents: { researcher: 'mem0-prod' },
    },
  },
};

describe('the host config', () => {
  it('is optional section by section: an empty file is the zero-config default', () => {
    expect(parseHostConfig({})).toEqual({ providers: [], companies: {} });
  });

  it('accepts the memplane-mcp bindings file of today as it is', async () => {
    const path = join(folder, 'bindings.json');
    await writeFile(path, JSON.stringify(mcpBindingsFile));
    expect(await readHostConfig(path)).toEqual({ providers: [], ...mcpBindingsFile });
  });

  it('reads provider packages, destinations and hooks', () => {
    const config = parseHostConfig({
      providers: ['@memplane/mem0', 'acme-memory-adapter', '@acme/memplane-adapter'],
      destinations: { endpoints: { mem0: ['https://mem0-proxy.acme.example', 'https://*.mem0.ai'] }, allowPrivateNetworks: false },
      companies: { acme: { bindings: [{ key: 'notes', providerId: 'markdown', enabled: false, hooks: { postRunCapture: true } }] } },
    });
    expect(config.providers).toEqual(['@memplane/mem0', 'acme-memory-adapter', '@acme/memplane-adapter']);
    expect(config.destinations?.endpoints?.mem0).toHaveLength(2);
  });

  it('refuses unknown fields anywhere, naming them', () => {
    expect(refusal({ provider: ['@memplane/mem0'] })).toBe('provider');
    expect(refusal({ companies: { acme: { bindings: [], defualt: 'x' } } })).toBe('companies.acme.defualt');
    expect(refusal({ companies: { acme: { bindings: [{ key: 'a', providerId: 'markdown', confg: {} }] } } })).toBe('companies.acme.bindings.0.confg');
    expect(refusal({ companies: { acme: { bindings: [{ key: 'a', providerId: 'markdown', hooks: { preRun: true } }] } } })).toBe('companies.acme.bindings.0.hooks.preRun');
    expect(refusal({ destinations: { allowPrivateNetwork: true } })).toBe('destinations.allowPrivateNetwork');
    expect(refusal({ __proto__: { providers: [] }, ...JSON.parse('{"__proto__":{"x":1}}') })).toBe('__proto__');
  });

  it('refuses a provider package name that is not a package name: paths, subpaths, URLs, `..`', () => {
    const names = [
      '../evil',
      './local-adapter',
      '/abs/path',
      '@memplane/../evil',
      '@memplane/mem0/provider',
      '@memplane/mem0/../../x',
      'mem0/..',
      '..',
      '.hidden',
      '_underscore',
      'file:../x',
      'https://evil.example/x.js',
      'node:fs',
      'Mem0',
      '@scope',
      '@/x',
      'a b',
      '',
      'x'.repeat(215),
      'data:text/javascript,export default 1',
    ];
    for (const name of names) expect(refusal({ providers: [name] }), name).toBe('providers.0');
  });

  it('refuses malformed values, naming the field', () => {
    expect(refusal({ providers: '@memplane/mem0' })).toBe('providers');
    expect(refusal({ secretEnvironment: { acme: 'MEM0_API_KEY' } })).toBe('secretEnvironment.acme');
    expect(refusal({ destinations: { endpoints: { mem0: ['ftp://mem0.example'] } } })).toBe('destinations.endpoints.mem0.0');
    expect(refusal({ destinations: { endpoints: { 'Not An Id': [] } } })).toMatch(/^destinations\.endpoints/);
    expect(refusal({ companies: { acme: { bindings: [{ key: '', providerId: 'markdown' }] } } })).toBe('companies.acme.bindings.0.key');
    expect(refusal({ companies: { acme: { bindings: [{ key: 'a' }] } } })).toBe('companies.acme.bindings.0.providerId');
    expect(refusal({ companies: { 'a\u0000b': { bindings: [] } } })).toMatch(/^companies/);
    expect(refusal([])).toBe('');
    expect(refusal(null)).toBe('');
  });

  it('says which file cannot be read or is not JSON, as a configuration error', async () => {
    const missing = join(folder, 'missing.json');
    await expect(readHostConfig(missing)).rejects.toSatisfy((error) => MemoryConfigurationError.isInstance(error) && (error as Error).message.includes(missing));
    const broken = join(folder, 'broken.json');
    await writeFile(broken, '{ "providers": [');
    await expect(readHostConfig(broken)).rejects.toSatisfy((error) => MemoryConfigurationError.isInstance(error) && /not JSON/.test((error as Error).message));
    await expect(readHostConfig(folder)).rejects.toSatisfy((error) => MemoryConfigurationError.isInstance(error));
  });
});
