import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemplaneHost, readHostConfig } from '@memplane/host';
import { connectInProcess } from './test-support/mcp-test-service';

const system = (companyId: string) => ({ actor: { kind: 'system', component: 'test' }, companyId }) as const;

describe('the MCP tools on the host memplane-mcp opens (the data folder, its config)', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-embedded-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('starts zero-config: SQLite and markdown in the data folder, a default markdown binding, a cursor secret that survives restarts', async () => {
    const firstHost = await openMemplaneHost({ dataDirectory: folder });
    const first = firstHost.service;
    await firstHost.ensureDefaultBinding('acme');
    expect((await first.control(system('acme')).resolve('planner')).binding).toMatchObject({ key: 'default', providerId: 'markdown' });
    const client = await connectInProcess(first, { companyId: 'acme', agentId: 'planner' });
    for (let index = 0; index < 3; index += 1) await client.callTool({ name: 'memory_note', arguments: { text: `Fact ${index} about the launch.` } });
    const page = await client.callTool({ name: 'memory_list', arguments: { limit: 2 } });
    const { nextCursor } = page.structuredContent as { nextCursor: string };
    await client.close();
    await first.close();
    const secret = await readFile(join(folder, 'cursor-secret'), 'utf8');

    // A restart reads the same folder: the memories, the binding and the cursor still work.
    const secondHost = await openMemplaneHost({ dataDirectory: folder });
    const second = secondHost.service;
    await secondHost.ensureDefaultBinding('acme');
    expect(await second.control(system('acme')).listBindings()).toHaveLength(1);
    const again = await connectInProcess(second, { companyId: 'acme', agentId: 'planner' });
    const rest = await again.callTool({ name: 'memory_list', arguments: { limit: 2, cursor: nextCursor } });
    expect(rest.isError).toBeFalsy();
    expect((rest.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    await again.close();
    await second.close();
    expect(await readFile(join(folder, 'cursor-secret'), 'utf8')).toBe(secret);
  });

  it('survives two servers creating the default binding of a new company at once', async () => {
    const host = await openMemplaneHost({ dataDirectory: folder });
    const { service } = host;
    try {
      await Promise.all([host.ensureDefaultBinding('acme'), host.ensureDefaultBinding('acme'), host.ensureDefaultBinding('acme')]);
      expect((await service.control(system('acme')).listBindings()).map((binding) => binding.key)).toEqual(['default']);
      expect((await service.control(system('acme')).resolve('planner')).binding.key).toBe('default');
    } finally {
      await service.close();
    }
  });

  it('applies a config file of bindings and agent overrides through the control plane, and leaves a configured company alone', async () => {
    const config = join(folder, 'bindings.json');
    await writeFile(
      config,
      JSON.stringify({
        companies: {
          acme: {
            bindings: [{ key: 'notes', providerId: 'markdown' }, { key: 'scratch', providerId: 'memory' }],
            default: 'notes',
            agents: { builder: 'scratch' },
          },
        },
      }),
    );
    const host = await openMemplaneHost({ dataDirectory: join(folder, 'data'), config: await readHostConfig(config) });
    const { service } = host;
    try {
      await host.ensureDefaultBinding('acme');
      const control = service.control(system('acme'));
      expect((await control.listBindings()).map((binding) => binding.key).sort()).toEqual(['notes', 'scratch']);
      expect((await control.resolve('planner')).binding.key).toBe('notes');
      expect((await control.resolve('builder')).binding.key).toBe('scratch');
      const activity = await control.listActivity();
      expect(activity.items.length).toBeGreaterThanOrEqual(4);
      // The reference provider lists extraction jobs, markdown does not: the tool set follows the agent's binding.
      const builder = await connectInProcess(service, { companyId: 'acme', agentId: 'builder' });
      const planner = await connectInProcess(service, { companyId: 'acme', agentId: 'planner' });
      expect((await builder.listTools()).tools.map((tool) => tool.name)).toContain('memory_jobs');
      expect((await planner.listTools()).tools.map((tool) => tool.name)).not.toContain('memory_jobs');
      await builder.close();
      await planner.close();
    } finally {
      await service.close();
    }
    // Applying the same file again changes nothing.
    const reopened = (await openMemplaneHost({ dataDirectory: join(folder, 'data'), config: await readHostConfig(config) })).service;
    const after = await reopened.control(system('acme')).listBindings();
    expect(after.map((binding) => binding.revision)).toEqual(after.map(() => 1));
    await reopened.close();
  });

  it('offers the provider packages the config file names, loaded by package name, and names one that is not installed', async () => {
    const config = join(folder, 'bindings.json');
    await writeFile(
      config,
      JSON.stringify({
        providers: ['@memplane-fixtures/notebook-provider'],
        companies: { acme: { bindings: [{ key: 'notes', providerId: 'notebook', config: { notebook: 'acme' } }], default: 'notes' } },
      }),
    );
    const { service } = await openMemplaneHost({ dataDirectory: join(folder, 'data'), config: await readHostConfig(config) });
    try {
      expect(service.providers.list().map((provider) => provider.providerId)).toEqual(['markdown', 'memory', 'notebook']);
      const client = await connectInProcess(service, { companyId: 'acme', agentId: 'planner' });
      await client.callTool({ name: 'memory_note', arguments: { text: 'The launch moved to Thursday.' } });
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when is the launch?' } });
      expect(JSON.stringify(found.structuredContent)).toContain('The launch moved to Thursday.');
      await client.close();
    } finally {
      await service.close();
    }
    await writeFile(config, JSON.stringify({ providers: ['@memplane-test/not-installed-provider'] }));
    await expect(openMemplaneHost({ dataDirectory: join(folder, 'other'), config: await readHostConfig(config) })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
      packageName: '@memplane-test/not-installed-provider',
    });
  });

  it('refuses a malformed config file, naming the field, and one that is not JSON', async () => {
    const config = join(folder, 'bad.json');
    await writeFile(config, JSON.stringify({ companies: { acme: { bindings: [{ key: 'x', providerId: 'markdown', apiKey: 'sk-live' }] } } }));
    await expect(readHostConfig(config)).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      message: expect.stringContaining('companies.acme.bindings.0'),
    });
    await writeFile(config, '{ not json');
    await expect(readHostConfig(config)).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
  });
});
