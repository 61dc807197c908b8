import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpCommand } from './mcp-command';
import { openMemplaneHost } from '@memplane/host';
import { agentTokenVerifier } from './mcp-agent-token';

function captureOutput() {
  let stdout = '';
  let stderr = '';
  return { output: { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) }, stdout: () => stdout, stderr: () => stderr };
}

describe('memplane mcp token', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-cli-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  const run = async (argv: string[]) => {
    const captured = captureOutput();
    const code = await mcpCommand.run(argv, captured.output, { commandName: 'memplane-mcp' });
    return { code, stdout: captured.stdout(), stderr: captured.stderr() };
  };

  it('is memplane token under its own name: an agent token, kept in the data folder\'s database, that the MCP server honours until revoked', async () => {
    const issued = await run(['token', 'issue', '--company', 'acme', '--agent', 'planner', '--project', 'apollo', '--label', 'laptop', '--data-dir', folder]);
    expect(issued).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Issued (tok_[A-Za-z0-9_-]{24}) \(agent planner of company acme, project apollo\)\./) });
    const token = issued.stdout.trim();
    expect(token).toMatch(/^mpk_[A-Za-z0-9_-]{43}$/);
    const id = /tok_[A-Za-z0-9_-]{24}/.exec(issued.stderr)![0];

    const verifyIn = async (check: (verify: (token: string) => Promise<unknown>) => Promise<void>) => {
      const host = await openMemplaneHost({ dataDirectory: folder });
      try {
        await check(agentTokenVerifier(host.tokens));
      } finally {
        await host.close();
      }
    };
    await verifyIn(async (verify) => expect(await verify(token)).toEqual({ tokenId: id, companyId: 'acme', agentId: 'planner', projectId: 'apollo' }));
    expect((await run(['token', 'list', '--data-dir', folder])).stdout).toBe(`id\trole\tcompanies\tsubject\tproject\tstate\texpires\tlabel\n${id}\tagent\tacme\tplanner\tapollo\tactive\t\tlaptop\n`);
    expect(await run(['token', 'revoke', id, '--data-dir', folder])).toMatchObject({ code: 0, stdout: `Revoked ${id}.\n` });
    await verifyIn(async (verify) => expect(await verify(token)).toBeUndefined());
    expect(await run(['token', 'revoke', 'tok_000000000000000000000000', '--data-dir', folder])).toMatchObject({ code: 1 });
  });

  it('answers a usage error with exit code 2 and the version with 0, under its own name', async () => {
    expect(await run(['token', 'issue', '--agent', 'planner', '--data-dir', folder])).toMatchObject({ code: 2, stderr: expect.stringContaining('exactly one --company') });
    expect(await run(['token', 'issue', '--company', 'bad\u0000id', '--agent', 'planner', '--data-dir', folder])).toMatchObject({ code: 2 });
    expect(await run(['--transport', 'carrier-pigeon'])).toMatchObject({ code: 2 });
    expect(await run(['token', 'issue', '--company', 'acme', '--agent', 'planner', '--expires-in-days', '1e9', '--data-dir', folder])).toMatchObject({ code: 2, stderr: expect.stringContaining('at most 36500') });
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/) });
    const unknown = await run(['token', 'issue', '--agent', 'planner', '--company', 'acme', '--bogus', '--data-dir', folder]);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Run `memplane-mcp token issue --help` for the usage.') });
  });
});

describe('memplane mcp --config', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-config-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('refuses a config that is not a valid host config before anything is opened, naming the field', async () => {
    const config = join(folder, 'config.json');
    await writeFile(config, JSON.stringify({ providers: ['../evil'], companies: {} }));
    const captured = captureOutput();
    const code = await mcpCommand.run(['--transport', 'http', '--port', '0', '--data-dir', join(folder, 'data'), '--config', config], captured.output, { commandName: 'memplane-mcp' });
    expect(code).toBe(2);
    expect(captured.stderr()).toContain('providers.0');
    await expect(stat(join(folder, 'data'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
