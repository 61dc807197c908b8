/**
 * The packages that promise zero-config start as their READMEs say, installed from their
 * tarballs with only the README's install line in an empty folder: the embedded default
 * (SQLite and markdown memory) must come with the package. For MCP, a real MCP client runs a
 * session over stdio with the README's first command and with its Claude Desktop configuration.
 * Install scripts run, as npm's default, so better-sqlite3 compiles here as it would for a user.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationCodeBlocks, repositoryRoot } from './docs-code-blocks';
import { installProject, packPublicPackages, readmeInstallLine, repositoryVersionOf, run, withWorkspaceDependencies, type PackedPackage } from './packed-install';

const workDirectory = mkdtempSync(join(tmpdir(), 'memplane-zero-config-'));
let packages: PackedPackage[] = [];

beforeAll(() => {
  packages = packPublicPackages(join(workDirectory, 'tarballs'));
}, 300_000);

afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

/** Installs a README's install line into an empty project: workspace packages from their tarballs, the rest from the registry. */
function installReadmeLine(name: string, readmePath: string, devDependencies: Record<string, string> = {}): string {
  const named = readmeInstallLine(readFileSync(join(repositoryRoot, readmePath), 'utf8'));
  const project = join(workDirectory, name);
  const fromRegistry = Object.fromEntries(named.filter((entry) => !entry.startsWith('@memplane/')).map((entry) => [entry, repositoryVersionOf(entry)]));
  const workspace = named.filter((entry) => entry.startsWith('@memplane/'));
  const install = installProject(project, { name, private: true, type: 'module', dependencies: fromRegistry, devDependencies }, withWorkspaceDependencies(workspace, packages), { scripts: true });
  expect(install.status, install.output).toBe(0);
  expect(existsSync(join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')), 'better-sqlite3 was built').toBe(true);
  return project;
}

/** A stdio MCP session of the MCP SDK's own client: lists the tools, notes a fact and finds it. */
const mcpClientScript = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
const [command, ...args] = JSON.parse(process.argv[2]);
const env = { ...getDefaultEnvironment(), ...JSON.parse(process.argv[3]) };
const transport = new StdioClientTransport({ command, args, env, cwd: process.cwd(), stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (chunk) => { stderr += chunk; });
const client = new Client({ name: 'zero-config-test', version: '1.0.0' });
try {
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'Billing deploys on Tuesdays after the standup.' } });
  const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when does billing deploy' } });
  console.log(JSON.stringify({ tools, noted: noted.isError === true ? 'error' : 'ok', found: JSON.stringify(found.content) }));
} catch (error) {
  console.log(JSON.stringify({ failed: String(error), stderr }));
} finally {
  await client.close();
}
`;

function mcpSession(project: string, command: string[], env: Record<string, string>): { tools?: string[]; noted?: string; found?: string; failed?: string; stderr?: string } {
  const session = run(process.execPath, ['client.mjs', JSON.stringify(command), JSON.stringify(env)], project, 120_000);
  const last = session.output.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as ReturnType<typeof mcpSession>;
  } catch {
    return { failed: session.output };
  }
}

describe('zero-config from the install line', () => {
  it('@memplane/mcp: the README first command and the Claude Desktop configuration serve a real MCP client over stdio', () => {
    const readme = readFileSync(join(repositoryRoot, 'packages/mcp/README.md'), 'utf8');
    const project = installReadmeLine('mcp-user', 'packages/mcp/README.md');
    writeFileSync(join(project, 'client.mjs'), mcpClientScript);

    const firstCommand = /```sh\n(npx [^#\n]+)/.exec(readme)?.[1]?.trim().split(/\s+/);
    expect(firstCommand?.slice(0, 2)).toEqual(['npx', 'memplane-mcp']);
    const quickstart = mcpSession(project, firstCommand ?? [], {});
    expect(quickstart.failed, quickstart.stderr).toBeUndefined();
    expect(quickstart.tools).toEqual(expect.arrayContaining(['memory_note', 'memory_search']));
    expect(quickstart.noted).toBe('ok');
    expect(quickstart.found).toContain('Tuesdays');

    const desktop = JSON.parse(/`claude_desktop_config.json`:\n\n```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '{}') as {
      mcpServers: { memplane: { command: string; args: string[]; env: Record<string, string> } };
    };
    const server = desktop.mcpServers.memplane;
    const dataDirectory = join(project, 'desktop-data');
    const args = server.args.map((arg) => (arg.startsWith('/Users/') ? dataDirectory : arg));
    const configured = mcpSession(project, [server.command, ...args], server.env);
    expect(configured.failed, configured.stderr).toBeUndefined();
    expect(configured.found).toContain('Tuesdays');
    expect(existsSync(join(dataDirectory, 'memplane.db'))).toBe(true);
  }, 600_000);

  it('@memplane/ai-sdk: the quickstart, as written, recalls and captures on the embedded default', () => {
    const project = installReadmeLine('ai-sdk-user', 'packages/ai-sdk/README.md', { tsx: repositoryVersionOf('tsx') });
    const quickstart = documentationCodeBlocks().find((block) => block.document === 'packages/ai-sdk/README.md' && block.code.includes('memplaneMiddleware'));
    expect(quickstart).toBeDefined();
    writeFileSync(join(project, 'quickstart.ts'), quickstart?.code ?? '');
    writeFileSync(
      join(project, 'turn.ts'),
      [
        "import { MockLanguageModelV3 } from 'ai/test';",
        "import { reply } from './quickstart.ts';",
        "const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };",
        'const prompts: string[] = [];',
        "const model = new MockLanguageModelV3({ doGenerate: async ({ prompt }) => { prompts.push(JSON.stringify(prompt)); return { content: [{ type: 'text', text: 'Noted: billing deploys on Tuesdays.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }; } });",
        "console.log(await reply(model, [{ role: 'user', content: 'Billing deploys on Tuesdays after the standup.' }]));",
        "await reply(model, [{ role: 'user', content: 'When does billing deploy?' }]);",
        "console.log(prompts.at(-1)?.includes('Tuesdays') ? 'recalled' : 'not recalled');",
      ].join('\n'),
    );
    const turn = run(join(project, 'node_modules/.bin/tsx'), ['turn.ts'], project, 120_000);
    expect(turn.status, turn.output).toBe(0);
    expect(turn.output).toContain('Noted: billing deploys on Tuesdays.');
    expect(turn.output).toContain('recalled');
    expect(existsSync(join(project, 'memplane.db'))).toBe(true);
  }, 600_000);
});
