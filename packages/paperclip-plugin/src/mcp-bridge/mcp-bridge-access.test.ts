import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryUiActionKeys } from '../memory-ui-contract';
import { credentialRefusal } from './mcp-bridge-launch';
import { bridgeHarness, snapshot } from './test-support/bridge-harness';

const postgresSecret = 'postgres://memplane:s3cret-pw@db.internal:5432/memplane';

async function bothCompanies(config: Record<string, unknown> = {}) {
  const bridge = bridgeHarness(config);
  for (const companyId of ['acme', 'globex']) {
    await bridge.configure(companyId, 'agent-workspace');
    await bridge.configure(companyId, 'codex-home');
  }
  return bridge;
}

const nothing = [undefined, undefined, undefined];

describe('who may set the MCP bridge up', () => {
  it('an owner or admin of the company the host authorised; a viewer, a suspended admin, an agent or a system call is refused and nothing is written', async () => {
    const bridge = await bothCompanies();
    const refusedActors = [
      { type: 'user', userId: 'vic' },
      { type: 'user', userId: 'sam' },
      { type: 'user', userId: 'gus' },
      { type: 'agent', agentId: 'planner', userId: null },
      { type: 'system' },
      { type: 'user', userId: null },
    ] as const;
    for (const actor of refusedActors) {
      for (const key of [memoryUiActionKeys.installMcpBridge, memoryUiActionKeys.removeMcpBridge]) {
        await expect(bridge.harness.performAction(key, {}, { companyId: 'acme', actor }), JSON.stringify(actor)).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
      }
    }
    await expect(bridge.harness.performAction(memoryUiActionKeys.installMcpBridge, {}, { actor: { type: 'user', userId: 'ada' } })).rejects.toMatchObject({
      code: 'MEMORY_SCOPE_VIOLATION',
      message: expect.stringMatching(/authorised no company/),
    });
    expect(await snapshot(bridge, 'acme')).toEqual(nothing);
    expect(await bridge.install('acme', 'ada')).toHaveLength(3);
  });

  it('writes into the host company folders only, whatever company the page names, and never touches another company', async () => {
    const bridge = await bothCompanies();
    await bridge.write('globex', 'agent-workspace', '.mcp.json', '{ "mcpServers": {} }');
    // The page says globex; the host authorised acme for this call, so acme it is.
    await bridge.harness.performAction(memoryUiActionKeys.installMcpBridge, { companyId: 'globex' }, { companyId: 'acme', actor: { type: 'user', userId: 'ada' } });
    expect((await snapshot(bridge, 'acme')).every((text) => text?.includes('memplane'))).toBe(true);
    expect(await snapshot(bridge, 'globex')).toEqual(['{ "mcpServers": {} }', undefined, undefined]);
    // globex's admin removes in globex: acme's files stay installed.
    await bridge.remove('globex', 'gus');
    expect((await bridge.status('acme')).clients.map((client) => client.file.state)).toEqual(['installed', 'installed', 'installed']);
    expect((await bridge.status('globex')).clients.map((client) => client.file.state)).toEqual(['not-installed', 'absent', 'absent']);
  });

  it('refuses a request that names no company or an unknown client, naming the field', async () => {
    const bridge = await bothCompanies();
    await expect(bridge.harness.getData('memplane.mcp-bridge', {})).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    await expect(bridge.install('acme', 'ada', ['vscode' as 'codex'])).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', message: expect.stringMatching(/clients/) });
    expect(await snapshot(bridge, 'acme')).toEqual(nothing);
  });
});

describe('the MCP bridge never writes a secret', () => {
  it('a worker on Postgres: the entry names the variable, never the connection string, in every file', async () => {
    const bridge = await bothCompanies({ storage: { postgres: { connectionString: { type: 'secret_ref', secretId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' }, schema: 'memory' } } });
    // Were anything to resolve the worker's connection string, this is what it would get.
    bridge.harness.ctx.secrets.resolve = async () => postgresSecret;
    await bridge.install('acme', 'ada');
    const written = (await snapshot(bridge, 'acme')).join('\n');
    expect(written).not.toContain('s3cret-pw');
    expect(written).not.toMatch(/postgres(ql)?:\/\//);
    expect(written).toContain('"MEMPLANE_POSTGRES_URL": "${MEMPLANE_POSTGRES_URL:-}"');
    expect(written).toContain('"MEMPLANE_POSTGRES_URL": "${env:MEMPLANE_POSTGRES_URL}"');
    expect(written).toMatch(/env_vars = \[.*"MEMPLANE_POSTGRES_URL"\]/);
    expect(written).toContain('"--postgres-schema", "memory"');
    expect(written).not.toContain('--data-dir');
  });

  it('a URL with a credential in the command or the target is refused, nothing written', async () => {
    for (const mcpBridge of [
      { command: ['npx', '-y', '@memplane/mcp', '--postgres', postgresSecret] },
      { command: ['env', 'PGPASSWORD=hunter2', 'memplane-mcp'] },
      { target: { dataDirectory: 'https://user:pw@files.internal/memplane' } },
    ]) {
      const bridge = await bothCompanies({ mcpBridge });
      await expect(bridge.install('acme', 'ada'), JSON.stringify(mcpBridge)).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringMatching(/never written/) });
      expect(await snapshot(bridge, 'acme')).toEqual(nothing);
      const status = await bridge.status('acme');
      expect(JSON.stringify(status)).not.toMatch(/s3cret-pw|hunter2|user:pw/);
      expect(status.launch).toMatchObject({ refusal: expect.stringMatching(/credential|Postgres URL/) });
    }
  });

  it('Codex cannot rename a variable, so a Postgres URL in another variable is refused for Codex alone', async () => {
    const bridge = await bothCompanies({ mcpBridge: { target: { postgres: { urlVariable: 'COMPANY_PG_URL' } } } });
    await expect(bridge.install('acme', 'ada')).rejects.toMatchObject({ message: expect.stringMatching(/Codex forwards variables/) });
    expect(await snapshot(bridge, 'acme')).toEqual(nothing);
    await bridge.install('acme', 'ada', ['claude-code']);
    expect(await bridge.read('acme', 'agent-workspace', '.mcp.json')).toContain('"MEMPLANE_POSTGRES_URL": "${COMPANY_PG_URL:-}"');
  });

  it('refuses every URL that carries user information, whatever it is made of (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=-]{1,20}$/);
    fc.assert(
      fc.property(fc.constantFrom('postgres', 'postgresql', 'https', 'redis', 'mysql'), word, word, fc.string({ maxLength: 10 }), (scheme, user, password, prefix) => {
        expect(credentialRefusal(`${prefix}${scheme}://${user}:${password}@host.example/db`)).toBeDefined();
      }),
    );
    for (const safe of ['npx', '-y', '@memplane/mcp@1.2.3', '--data-dir', '/srv/paperclip/memplane', 'C:\\memplane\\data']) expect(credentialRefusal(safe)).toBeUndefined();
  });
});

describe('the MCP bridge when the service runs at a memplane serve', () => {
  const http = { service: { mode: 'http', url: 'https://memory.example.com', token: { type: 'secret_ref', secretId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' } } };

  it('refuses without an explicit target, saying why, and writes nothing', async () => {
    const bridge = await bothCompanies(http);
    await expect(bridge.install('acme', 'ada')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringMatching(/cannot reach.*mcpBridge\.target/) });
    expect(await snapshot(bridge, 'acme')).toEqual(nothing);
    expect((await bridge.status('acme')).clients.map((client) => client.file.state)).toEqual(['unavailable', 'unavailable', 'unavailable']);
  });

  it('points at the server data folder the config names', async () => {
    const bridge = await bothCompanies({ ...http, mcpBridge: { target: { dataDirectory: '/srv/memplane-serve' }, command: ['memplane-mcp'] } });
    await bridge.install('acme', 'ada', ['claude-code']);
    expect(JSON.parse((await bridge.read('acme', 'agent-workspace', '.mcp.json')) ?? '').mcpServers.memplane).toMatchObject({ command: 'memplane-mcp', args: ['--data-dir', '/srv/memplane-serve'] });
  });
});
