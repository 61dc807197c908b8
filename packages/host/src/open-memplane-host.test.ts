import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifierSchema, MemoryError, MemoryValidationError } from '@memplane/core';
import { MemoryMissingPackageError } from '@memplane/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MemplaneHostWarning } from './host-warning';
import { openDataFolderService } from './data-folder/open-data-folder-service';
import { openHostWith, openMemplaneHost, type MemplaneHost } from './open-memplane-host';
import { openHashedTokenFile } from './tokens/hashed-token-file';

let folder: string;
const opened: MemplaneHost[] = [];
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-host-'));
});
afterEach(async () => {
  for (const host of opened.splice(0)) await host.close();
  await rm(folder, { recursive: true, force: true });
});

async function open(options: Partial<Parameters<typeof openMemplaneHost>[0]> = {}): Promise<MemplaneHost> {
  const host = await openMemplaneHost({ dataDirectory: folder, ...options });
  opened.push(host);
  return host;
}

const system = (companyId: string) => ({ actor: { kind: 'system', component: 'test' }, companyId }) as const;

describe('opening a host', () => {
  it('is zero-config: a company with no binding gets a markdown default from the host, once, and memory works', async () => {
    const host = await open();
    await host.ensureDefaultBinding('acme');
    await host.ensureDefaultBinding('acme');
    const control = host.service.control(system('acme'));
    expect(await control.listBindings()).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
    const runtime = host.service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } });
    await runtime.upsertRecords({ records: [{ text: 'The billing team ships on Thursdays.' }] });
    expect((await runtime.query({ query: 'billing team' })).snippets.length).toBeGreaterThan(0);
    expect(existsSync(join(folder, 'markdown', 'acme'))).toBe(true);
    expect(host.service.providers.list().map((provider) => provider.providerId).sort()).toEqual(['markdown', 'memory']);
  });

  it('lets an embedder bring its own markdown or memory definition in place of the host\'s, never both', async () => {
    const { provider: memoryProvider } = await import('@memplane/memory/provider');
    const ownMemory = { ...memoryProvider, description: 'The embedder\'s memory.' };
    const host = await open({ providers: [ownMemory] });
    const listed = host.service.providers.list();
    expect(listed.map((provider) => provider.providerId).sort()).toEqual(['markdown', 'memory']);
    expect(listed.find((provider) => provider.providerId === 'memory')?.description).toBe('The embedder\'s memory.');
  });

  it('leaves a company with a binding as its operator made it', async () => {
    const host = await open();
    await host.service.control(system('acme')).createBinding({ key: 'scratch', providerId: 'memory' });
    await host.ensureDefaultBinding('acme');
    expect(await host.service.control(system('acme')).listBindings()).toMatchObject([{ key: 'scratch' }]);
  });

  it('applies the config: bindings, defaults, agents, and the secret allow-list of each company', async () => {
    const host = await open({
      environment: { ACME_TOKEN: 'secret-value' },
      config: {
        secretEnvironment: { acme: ['ACME_TOKEN'] },
        companies: {
          acme: { bindings: [{ key: 'notes', providerId: 'memory' }, { key: 'scratch', providerId: 'memory', enabled: false }], default: 'notes', agents: { researcher: 'notes' } },
          globex: { bindings: [{ key: 'md', providerId: 'markdown' }], default: 'md' },
        },
      },
    });
    expect((await host.service.control(system('acme')).resolve()).binding.key).toBe('notes');
    expect((await host.service.control(system('acme')).listBindings()).map((binding) => [binding.key, binding.enabled])).toEqual([
      ['notes', true],
      ['scratch', false],
    ]);
    expect((await host.service.control(system('globex')).resolve()).binding.providerId).toBe('markdown');
    // The allow-list reached the service: globex may not read ACME_TOKEN.
    await expect(
      host.service.control(system('globex')).createBinding({ key: 'leak', providerId: 'memory', config: { note: { $secret: { env: 'ACME_TOKEN' } } } }),
    ).rejects.toSatisfy((error) => MemoryError.isInstance(error));
  });

  it('refuses a config with unknown fields, a provider name that is a path, or a markdown root out of the company, before serving', async () => {
    await expect(openMemplaneHost({ dataDirectory: folder, config: { companies: {}, tokens: [] } as never })).rejects.toSatisfy(
      (error) => MemoryValidationError.isInstance(error) && error.issues[0]?.path === 'tokens',
    );
    await expect(openMemplaneHost({ dataDirectory: folder, config: { providers: ['../../evil'] } })).rejects.toSatisfy(
      (error) => MemoryValidationError.isInstance(error) && error.issues[0]?.path === 'providers.0',
    );
    // Nothing was opened for a config that is not valid.
    expect(existsSync(join(folder, 'memplane.db'))).toBe(false);
    for (const root of ['../globex', '../../..', '/etc']) {
      await expect(
        openMemplaneHost({ dataDirectory: folder, config: { companies: { acme: { bindings: [{ key: 'md', providerId: 'markdown', config: { root } }] } } } }),
        root,
      ).rejects.toSatisfy((error) => MemoryError.isInstance(error));
    }
    expect(existsSync(join(folder, 'markdown', 'globex'))).toBe(false);
  });

  it('loads a provider package it has never heard of by name from the config, and binds it', async () => {
    const host = await open({
      config: {
        providers: ['@memplane-fixtures/notebook-provider'],
        companies: { acme: { bindings: [{ key: 'notes', providerId: 'notebook', config: { notebook: 'team-notes' } }], default: 'notes' } },
      },
    });
    expect(host.service.providers.list().map((provider) => provider.providerId).sort()).toEqual(['markdown', 'memory', 'notebook']);
    const runtime = host.service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } });
    await runtime.upsertRecords({ records: [{ text: 'The notebook keeps this.' }] });
    expect((await runtime.query({ query: 'notebook' })).snippets.map((snippet) => snippet.text)).toContain('The notebook keeps this.');
  });

  it('opens without @memplane/markdown (an optional peer): tokens and other providers work, the default binding names the package', async () => {
    // What Node throws when @memplane/markdown is not installed.
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package '@memplane/markdown' imported from /app/node_modules/@memplane/host/dist/index.js"), { code: 'ERR_MODULE_NOT_FOUND' }));
    const host = await openHostWith({ dataDirectory: folder, config: { companies: { acme: { bindings: [{ key: 'notes', providerId: 'memory' }], default: 'notes' } } } }, missing);
    opened.push(host);
    expect(host.service.providers.list().map((provider) => provider.providerId)).toEqual(['memory']);
    await host.ensureDefaultBinding('acme');
    await expect(host.ensureDefaultBinding('globex')).rejects.toSatisfy(
      (error) => MemoryMissingPackageError.isInstance(error) && error.packageName === '@memplane/markdown',
    );
    const { token } = await host.tokens.issue({ role: 'operator', operatorId: 'ops' });
    expect(await host.tokens.verify(token)).toBeDefined();
  });

  it('refuses a provider package that is not installed, naming it', async () => {
    await expect(openMemplaneHost({ dataDirectory: folder, config: { providers: ['@memplane-test/not-installed'] } })).rejects.toSatisfy(
      (error) => MemoryMissingPackageError.isInstance(error) && error.packageName.startsWith('@memplane-test/not-installed'),
    );
  });

  it('imports the old token files of the folder once, and reports a damaged one without touching it', async () => {
    const mcp = openHashedTokenFile(join(folder, 'mcp-tokens.json'), {
      grant: z.strictObject({ companyId: identifierSchema, agentId: identifierSchema, projectId: identifierSchema.optional() }),
      tokenPrefix: 'mpt_',
    });
    const { token, record } = await mcp.issue({ companyId: 'acme', agentId: 'writer', projectId: 'apollo' });
    await writeFile(join(folder, 'server-tokens.json'), '{ "version": 1, "tokens": [');
    const warnings: MemplaneHostWarning[] = [];
    const host = await open({ log: (warning) => warnings.push(warning) });
    expect(host.tokenImports).toEqual([{ path: join(folder, 'mcp-tokens.json'), imported: 1, alreadyPresent: 0, renamedTo: join(folder, 'mcp-tokens.json.imported') }]);
    expect(await host.tokens.verify(token)).toMatchObject({ role: 'agent', companyId: 'acme', agentId: 'writer', projectId: 'apollo', id: record.id });
    expect(warnings).toMatchObject([{ code: 'TOKEN_FILE_DAMAGED', path: join(folder, 'server-tokens.json') }]);
    expect(await readFile(join(folder, 'server-tokens.json'), 'utf8')).toBe('{ "version": 1, "tokens": [');
    await host.close();
    opened.splice(0);
    const again = await open();
    expect(again.tokenImports).toEqual([]);
    expect(await again.tokens.list()).toHaveLength(1);
  });

  it('shares its tokens with every host on the same data folder: an issue and a revocation are seen at the next call', async () => {
    const one = await open();
    const two = await open();
    const { token, record } = await one.tokens.issue({ role: 'admin', companyId: 'acme' });
    expect(await two.tokens.verify(token)).toMatchObject({ id: record.id });
    expect(await two.tokens.revoke(record.id)).toBe(true);
    expect(await one.tokens.verify(token)).toBeUndefined();
  });

  it('closes what it opened when the config cannot be applied', async () => {
    await expect(
      openMemplaneHost({ dataDirectory: folder, config: { companies: { acme: { bindings: [], default: 'missing' } } } }),
    ).rejects.toSatisfy((error) => MemoryError.isInstance(error));
    // The folder's database is free again: another host opens and writes.
    const host = await open();
    await host.tokens.issue({ role: 'operator', operatorId: 'ops' });
  });

  it('opens the service alone, for a process with no tokens, leaving token files where they are', async () => {
    await writeFile(join(folder, 'server-tokens.json'), JSON.stringify({ version: 1, tokens: [] }));
    const service = await openDataFolderService({ dataDirectory: folder, config: { companies: { acme: { bindings: [{ key: 'notes', providerId: 'memory' }], default: 'notes' } } } });
    try {
      expect((await service.control(system('acme')).resolve()).binding.key).toBe('notes');
      expect(existsSync(join(folder, 'server-tokens.json'))).toBe(true);
    } finally {
      await service.close();
    }
  });
});
