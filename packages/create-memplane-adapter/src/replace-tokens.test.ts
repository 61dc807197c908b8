import { describe, expect, it } from 'vitest';
import { toProviderNames } from './provider-names';
import { renameTemplatePath, replaceTokens, type TokenReplacements } from './replace-tokens';

const acme: TokenReplacements = { names: toProviderNames('acme-memory'), packageName: '@acme/memplane-adapter' };

describe('replaceTokens', () => {
  it('replaces each spelling of the token by the matching case', () => {
    const source = [
      "export const exampleProviderKey = 'example';",
      'export function createExampleAdapter(settings: ExampleAdapterSettings) {}',
      'const apiKey = process.env.EXAMPLE_API_KEY;',
      "import { toRecordHandle } from './example-handle';",
      'The Example API answers at https://api.example.com.',
    ].join('\n');
    expect(replaceTokens(source, acme)).toBe(
      [
        "export const acmeMemoryProviderKey = 'acme-memory';",
        'export function createAcmeMemoryAdapter(settings: AcmeMemoryAdapterSettings) {}',
        'const apiKey = process.env.ACME_MEMORY_API_KEY;',
        "import { toRecordHandle } from './acme-memory-handle';",
        'The AcmeMemory API answers at https://api.acme-memory.com.',
      ].join('\n'),
    );
  });

  it('replaces the package name and keeps .env.example', () => {
    expect(replaceTokens('npm i @memplane/adapter-template && cp .env.example .env # EXAMPLE_API_KEY', acme)).toBe(
      'npm i @acme/memplane-adapter && cp .env.example .env # ACME_MEMORY_API_KEY',
    );
  });

  it("keeps configExample, the provider description's field, while it renames the rest", () => {
    expect(replaceTokens("providerId: 'example', configExample: { apiKey: { $secret: { env: 'EXAMPLE_API_KEY' } } }", acme)).toBe(
      "providerId: 'acme-memory', configExample: { apiKey: { $secret: { env: 'ACME_MEMORY_API_KEY' } } }",
    );
  });

  it('never replaces a replacement again, even when the id contains the token', () => {
    const names = toProviderNames('example-cloud');
    expect(replaceTokens('exampleCall example Example EXAMPLE', { names, packageName: 'x' })).toBe(
      'exampleCloudCall example-cloud ExampleCloud EXAMPLE_CLOUD',
    );
  });
});

describe('renameTemplatePath', () => {
  it('replaces tokens in paths and restores .gitignore', () => {
    expect(renameTemplatePath('src/example-adapter.ts', acme)).toBe('src/acme-memory-adapter.ts');
    expect(renameTemplatePath('src/__fixtures__/example-record.json', acme)).toBe(
      'src/__fixtures__/acme-memory-record.json',
    );
    expect(renameTemplatePath('_gitignore', acme)).toBe('.gitignore');
    expect(renameTemplatePath('.env.example', acme)).toBe('.env.example');
  });
});
