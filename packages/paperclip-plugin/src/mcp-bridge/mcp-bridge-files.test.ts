import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../version';
import { tomlBlockEnd, tomlBlockStart } from './mcp-bridge-toml-file';
import { bridgeHarness, pluginDataFolder, snapshot } from './test-support/bridge-harness';

const runVariables = ['PAPERCLIP_COMPANY_ID', 'PAPERCLIP_AGENT_ID', 'PAPERCLIP_RUN_ID', 'PAPERCLIP_PROJECT_ID', 'PAPERCLIP_TASK_ID'];
const expectedArgs = ['-y', `@memplane/mcp@${VERSION}`, '--data-dir', pluginDataFolder];

async function configuredBridge(config: Record<string, unknown> = {}) {
  const bridge = bridgeHarness(config);
  await bridge.configure('acme', 'agent-workspace');
  await bridge.configure('acme', 'codex-home');
  return bridge;
}

const userCodexConfig = `# my Codex settings
model = "o3" # the model I want

[mcp_servers.docs]
# documentation lookups
command = "npx"
args = ["-y", "docs-mcp"]
`;

const userMcpJson = `${JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}' } } }, permissions: { allow: ['Bash'] } }, null, 2)}\n`;

describe('the MCP bridge writes each client file', () => {
  it('installs into .mcp.json, .cursor/mcp.json and config.toml in each client documented shape, pinned, on the worker data folder', async () => {
    const bridge = await configuredBridge();
    const changes = await bridge.install('acme', 'ada');
    expect(changes.map((change) => [change.client, change.result])).toEqual([
      ['claude-code', 'written'],
      ['cursor', 'written'],
      ['codex', 'written'],
    ]);
    const [claude, cursor, codex] = await snapshot(bridge, 'acme');
    const claudeEntry = JSON.parse(claude ?? '').mcpServers.memplane;
    expect(claudeEntry).toEqual({
      command: 'npx',
      args: expectedArgs,
      env: { MEMPLANE_MCP_BRIDGE: 'memplane.memory', ...Object.fromEntries(runVariables.map((name) => [name, `\${${name}:-}`])) },
    });
    expect(JSON.parse(cursor ?? '').mcpServers.memplane.env.PAPERCLIP_AGENT_ID).toBe('${env:PAPERCLIP_AGENT_ID}');
    const table = (parse(codex ?? '') as { mcp_servers: Record<string, unknown> }).mcp_servers.memplane;
    expect(table).toEqual({ command: 'npx', args: expectedArgs, env: { MEMPLANE_MCP_BRIDGE: 'memplane.memory' }, env_vars: runVariables });
    const status = await bridge.status('acme');
    expect(status.launch).toEqual({ command: 'npx', args: expectedArgs });
    expect(status.clients.map((client) => client.file)).toEqual([{ state: 'installed' }, { state: 'installed' }, { state: 'installed' }]);
  });

  it('a second install changes no byte', async () => {
    const bridge = await configuredBridge();
    await bridge.write('acme', 'codex-home', 'config.toml', userCodexConfig);
    await bridge.install('acme', 'ada');
    const first = await snapshot(bridge, 'acme');
    const again = await bridge.install('acme', 'ada');
    expect(again.map((change) => change.result)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(await snapshot(bridge, 'acme')).toEqual(first);
  });

  it('keeps every other server, key, comment and line of the user files, and replaces only its own entry when the config moves', async () => {
    const bridge = await configuredBridge();
    await bridge.write('acme', 'agent-workspace', '.mcp.json', userMcpJson);
    await bridge.write('acme', 'codex-home', 'config.toml', userCodexConfig);
    await bridge.install('acme', 'ada', ['claude-code', 'codex']);
    const [claude, , codex] = await snapshot(bridge, 'acme');
    const document = JSON.parse(claude ?? '');
    expect(Object.keys(document.mcpServers)).toEqual(['github', 'memplane']);
    expect(document.mcpServers.github).toEqual(JSON.parse(userMcpJson).mcpServers.github);
    expect(document.permissions).toEqual({ allow: ['Bash'] });
    expect(codex?.startsWith(userCodexConfig)).toBe(true);
    expect((parse(codex ?? '') as { mcp_servers: Record<string, unknown> }).mcp_servers.docs).toEqual({ command: 'npx', args: ['-y', 'docs-mcp'] });

    // Another data folder: the entry is outdated, and a new install replaces it in place.
    const moved = bridgeHarness({ mcpBridge: { target: { dataDirectory: '/data/memplane' } } });
    await moved.configure('acme', 'codex-home');
    await moved.write('acme', 'codex-home', 'config.toml', codex ?? '');
    expect((await moved.status('acme')).clients[2]?.file).toEqual({ state: 'outdated' });
    await moved.install('acme', 'ada', ['codex']);
    const replaced = (await moved.read('acme', 'codex-home', 'config.toml')) ?? '';
    expect(replaced.startsWith(userCodexConfig)).toBe(true);
    expect(replaced.split(tomlBlockStart)).toHaveLength(2);
    expect(replaced).toContain('"/data/memplane"');
    expect(replaced).not.toContain(pluginDataFolder);
  });

  it('remove takes out its own entry and block only; the TOML file is back to the bytes the user had', async () => {
    const bridge = await configuredBridge();
    await bridge.write('acme', 'agent-workspace', '.mcp.json', userMcpJson);
    await bridge.write('acme', 'codex-home', 'config.toml', userCodexConfig);
    await bridge.install('acme', 'ada');
    const removed = await bridge.remove('acme', 'ada');
    expect(removed.map((change) => change.result)).toEqual(['written', 'written', 'written']);
    const [claude, cursor, codex] = await snapshot(bridge, 'acme');
    expect(JSON.parse(claude ?? '')).toEqual(JSON.parse(userMcpJson));
    expect(JSON.parse(cursor ?? '')).toEqual({ mcpServers: {} });
    expect(codex).toBe(userCodexConfig);
    expect((await bridge.remove('acme', 'ada')).map((change) => change.result)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });
});

describe('the MCP bridge refuses files it must not touch, writing nothing', () => {
  const refusals: Array<[string, 'agent-workspace' | 'codex-home', string, string, RegExp]> = [
    ['invalid JSON', 'agent-workspace', '.mcp.json', '{ "mcpServers": { "a": { "command": "x" } }, }', /not valid JSON/],
    ['an mcpServers that is not an object', 'agent-workspace', '.cursor/mcp.json', '{ "mcpServers": [] }', /not an object/],
    ['a memplane server someone else wrote', 'agent-workspace', '.mcp.json', '{ "mcpServers": { "memplane": { "command": "my-memplane" } } }', /did not write/],
    ['invalid TOML', 'codex-home', 'config.toml', 'model = "o3"\n[mcp_servers.docs\ncommand = "x"\n', /not valid TOML/],
    ['a Codex memplane table someone else wrote', 'codex-home', 'config.toml', '[mcp_servers.memplane]\ncommand = "mine"\n', /did not write/],
    ['an inline mcp_servers table that cannot take another', 'codex-home', 'config.toml', 'mcp_servers = { docs = { command = "x" } }\n', /inline table/],
    ['a damaged managed block', 'codex-home', 'config.toml', `${tomlBlockStart}\n[mcp_servers.memplane]\ncommand = "x"\n`, /damaged/],
  ];

  it.each(refusals)('%s: MEMORY_CONFLICT, the status says conflict, and no file of any client changes', async (_name, folderKey, path, text, reason) => {
    const bridge = await configuredBridge();
    await bridge.write('acme', folderKey, path, text);
    const before = await snapshot(bridge, 'acme');
    await expect(bridge.install('acme', 'ada')).rejects.toMatchObject({ code: 'MEMORY_CONFLICT', message: expect.stringMatching(reason) });
    expect(await snapshot(bridge, 'acme')).toEqual(before);
    const client = (await bridge.status('acme')).clients.find((candidate) => candidate.relativePath === path);
    const file = client?.file as { state: string; reason?: string } | undefined;
    // The inline-table case parses; only writing into it fails, so its status is "not installed" until the install is refused.
    if (!/inline/.test(reason.source)) expect(file).toMatchObject({ state: 'conflict', reason: expect.stringMatching(reason) });
  });

  it('remove leaves a memplane entry it did not write exactly as it is', async () => {
    const bridge = await configuredBridge();
    const foreign = '{ "mcpServers": { "memplane": { "command": "my-memplane" } } }';
    await bridge.write('acme', 'agent-workspace', '.mcp.json', foreign);
    expect((await bridge.remove('acme', 'ada', ['claude-code']))[0]?.result).toBe('unchanged');
    expect(await bridge.read('acme', 'agent-workspace', '.mcp.json')).toBe(foreign);
  });

  it('writes only into folders the company configured, and says which is missing', async () => {
    const bridge = bridgeHarness();
    await expect(bridge.install('acme', 'ada')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringMatching(/No agent folder/) });
    await bridge.configure('acme', 'agent-workspace');
    await expect(bridge.install('acme', 'ada', ['codex'])).rejects.toMatchObject({ message: expect.stringMatching(/codex-home folder is not configured/) });
    expect(await snapshot(bridge, 'acme')).toEqual([undefined, undefined, undefined]);
    expect((await bridge.install('acme', 'ada')).map((change) => change.client)).toEqual(['claude-code', 'cursor']);
    expect((await bridge.status('acme')).clients[2]?.file).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/not configured/) });
    // A folder the company gave read access only is never written.
    await bridge.harness.ctx.localFolders.configure({ companyId: 'acme', folderKey: 'codex-home', path: '/agents/acme/codex', access: 'read' });
    await expect(bridge.install('acme', 'ada', ['codex'])).rejects.toMatchObject({ message: expect.stringMatching(/codex-home folder is not readable and writable/) });
    expect(await bridge.read('acme', 'codex-home', 'config.toml')).toBeUndefined();
  });

  it('a file the host cannot read is never taken for a missing one: the install is refused and nothing is written', async () => {
    const bridge = await configuredBridge();
    await bridge.write('acme', 'agent-workspace', '.mcp.json', userMcpJson);
    const folders = bridge.harness.ctx.localFolders;
    const { readText, list } = folders;
    folders.readText = async () => {
      throw new Error('EACCES');
    };
    await expect(bridge.install('acme', 'ada', ['claude-code'])).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringMatching(/exists but cannot be read/) });
    folders.list = async () => {
      throw new Error('EACCES');
    };
    await expect(bridge.install('acme', 'ada', ['claude-code'])).rejects.toMatchObject({ message: expect.stringMatching(/neither read nor listed/) });
    folders.readText = readText;
    folders.list = list;
    expect(await bridge.read('acme', 'agent-workspace', '.mcp.json')).toBe(userMcpJson);
    // A .cursor folder that does not exist yet is a missing file, not an error.
    expect((await bridge.install('acme', 'ada', ['cursor']))[0]?.result).toBe('written');
  });
});
