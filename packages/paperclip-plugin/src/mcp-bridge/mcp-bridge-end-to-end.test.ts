import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTestHarness } from '@paperclipai/plugin-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import manifest from '../manifest';
import { memoryUiActionKeys } from '../memory-ui-contract';
import { VERSION } from '../version';
import { hostCompanyConfig } from '../worker/test-support/host-company-config';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from '../worker/memplane-paperclip-plugin';
import { comment, company, issue } from '../worker/test-support/paperclip-fixtures';
import { registerMcpBridge } from './mcp-bridge-handlers';
import { member } from './test-support/bridge-harness';

// The bin of the built @memplane/mcp (`npm test` builds every package before vitest runs).
const mcpBin = join(dirname(createRequire(import.meta.url).resolve('@memplane/mcp/package.json')), 'dist', 'memplane-mcp.js');

/** Claude Code's documented expansion in `.mcp.json`: `${VAR}` and `${VAR:-default}`. */
function expandClaudeCode(value: string, environment: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => environment[name] ?? fallback ?? '');
}

let folder: string | undefined;
let plugin: MemplanePaperclipPlugin | undefined;
afterEach(async () => {
  await plugin?.definition.onShutdown?.();
  plugin = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('the MCP bridge, end to end', () => {
  it('the server the written .mcp.json names finds, through the real MCP client, a comment the plugin captured into the same data folder', async () => {
    // Never a silent skip: without the build there is no server to run.
    if (!existsSync(mcpBin)) throw new TypeError(`${mcpBin} is missing: build it first (npx turbo run build --filter=@memplane/mcp)`);
    folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-bridge-'));
    const config = { storage: { dataDirectory: folder }, bindings: [{ key: 'default', providerId: 'markdown', hooks: { issueCommentCapture: true } }], default: 'default' };
    const harness = createTestHarness({ manifest });
    hostCompanyConfig(harness, { acme: config });
    plugin = createMemplanePaperclipPlugin();
    await plugin.definition.setup(harness.ctx);
    const running = plugin;
    registerMcpBridge(harness.ctx, { companyConfig: (companyId) => running.companyConfig(companyId) });

    // The plugin's in-worker service captures an agent's comment.
    const body = 'The staging database is reset every Sunday at 02:00 UTC.';
    harness.seed({
      companies: [company('acme')],
      issues: [issue('acme', 'iss-1', 'Staging', 'When is staging reset?')],
      issueComments: [comment('acme', 'iss-1', 'cmt-1', body, { agentId: 'planner', runId: 'run-1' })],
      accessMembers: [member('acme', 'ada', 'owner')],
    });
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', entityType: 'issue' });

    // An owner sets the bridge up from the settings page.
    await harness.ctx.localFolders.configure({ companyId: 'acme', folderKey: 'agent-workspace', path: join(folder, 'workspace') });
    await harness.performAction(memoryUiActionKeys.installMcpBridge, { clients: ['claude-code'] }, { companyId: 'acme', actor: { type: 'user', userId: 'ada' } });
    const written = JSON.parse(await harness.ctx.localFolders.readText('acme', 'agent-workspace', '.mcp.json')) as {
      mcpServers: { memplane: { command: string; args: string[]; env: Record<string, string> } };
    };
    const entry = written.mcpServers.memplane;
    expect(entry.command).toBe('npx');
    const [yes, pinned, ...serverArgs] = entry.args;
    expect([yes, pinned]).toEqual(['-y', `@memplane/mcp@${VERSION}`]);
    expect(serverArgs).toEqual(['--data-dir', folder]);

    // What Claude Code does with the entry in a later run of the agent, with npx swapped for the built bin (offline).
    const run = { PAPERCLIP_COMPANY_ID: 'acme', PAPERCLIP_AGENT_ID: 'planner', PAPERCLIP_RUN_ID: 'run-2', PAPERCLIP_TASK_ID: 'iss-1' };
    const env = Object.fromEntries(Object.entries(entry.env).map(([name, value]) => [name, expandClaudeCode(value, run)]));
    expect(env).toMatchObject({ ...run, PAPERCLIP_PROJECT_ID: '', MEMPLANE_MCP_BRIDGE: 'memplane.memory' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [mcpBin, ...serverArgs.map((arg) => expandClaudeCode(arg, run))],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-code', version: '2.1.0' });
    await client.connect(transport);
    try {
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when is the staging database reset' } });
      expect(found.isError).toBeFalsy();
      const [first] = (found.content ?? []) as Array<{ type: string; text?: string }>;
      expect(first?.text).toContain('reset every Sunday at 02:00 UTC');
    } finally {
      await client.close();
    }
  });
});
