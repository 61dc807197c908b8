import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpCommand } from './mcp-command';
import { openMcpTokenFile } from './mcp-token-file';

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

  it('issues a token printed once and stored only as its SHA-256, lists it and revokes it', async () => {
    const issued = await run(['token', 'issue', '--company', 'acme', '--agent', 'planner', '--label', 'laptop', '--data-dir', folder]);
    expect(issued).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Issued tok_[0-9a-f]{16} for agent planner of company acme\./) });
    const token = issued.stdout.trim();
    expect(token).toMatch(/^mpt_[A-Za-z0-9_-]{43}$/);

    const file = join(folder, 'mcp-tokens.json');
    const stored = await readFile(file, 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4, 20));
    expect((await stat(file)).mode & 0o077).toBe(0);
    expect(await openMcpTokenFile(file).verify(token)).toMatchObject({ companyId: 'acme', agentId: 'planner' });

    const id = /tok_[0-9a-f]{16}/.exec(issued.stderr)![0];
    expect((await run(['token', 'list', '--data-dir', folder])).stdout).toBe(`id\tcompany\tagent\tstate\tlabel\n${id}\tacme\tplanner\tactive\tlaptop\n`);
    expect(await run(['token', 'revoke', id, '--data-dir', folder])).toMatchObject({ code: 0, stdout: `Revoked ${id}.\n` });
    expect((await run(['token', 'list', '--data-dir', folder])).stdout).toContain('\trevoked\t');
    expect(await openMcpTokenFile(file).verify(token)).toBeUndefined();
    expect(await run(['token', 'revoke', 'tok_0000000000000000', '--data-dir', folder])).toMatchObject({ code: 1 });
  });

  it('creates the data folder of a first token', async () => {
    const nested = join(folder, 'new', 'data');
    const issued = await run(['token', 'issue', '--company', 'acme', '--agent', 'planner', '--data-dir', nested]);
    expect(issued.code).toBe(0);
    expect(await openMcpTokenFile(join(nested, 'mcp-tokens.json')).verify(issued.stdout.trim())).toMatchObject({ agentId: 'planner' });
  });

  it('answers a usage error with exit code 2 and the version with 0', async () => {
    expect(await run(['token', 'issue', '--agent', 'planner', '--data-dir', folder])).toMatchObject({ code: 2, stderr: expect.stringContaining("required option '--company <id>'") });
    expect(await run(['token', 'issue', '--company', 'bad\u0000id', '--agent', 'planner', '--data-dir', folder])).toMatchObject({ code: 2 });
    expect(await run(['--transport', 'carrier-pigeon'])).toMatchObject({ code: 2 });
    // A lifetime past any date is a usage error that says the bound, never "Invalid time value".
    for (const lifetime of ['1e9', '36501', '0', '-1', 'NaN', 'Infinity']) {
      const refused = await run(['token', 'issue', '--company', 'acme', '--agent', 'planner', '--expires-in-days', lifetime, '--data-dir', folder]);
      expect(refused, lifetime).toMatchObject({ code: 2, stderr: expect.stringContaining('at most 36500') });
    }
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/) });
  });

  it('prints the version on every subcommand and names the subcommand in its usage hint', async () => {
    for (const argv of [['token', '--version'], ['token', 'list', '--version'], ['token', 'issue', '--version'], ['token', 'revoke', '--version']]) {
      expect(await run(argv)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/) });
    }
    const refused = await run(['token', 'issue', '--agent', 'planner', '--data-dir', folder]);
    expect(refused.stderr).toContain('Run `memplane-mcp token issue --help` for the usage.');
  });
});

describe('the token file', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-tokens-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('refuses an expired token, a forged one, and every token once the file is damaged', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const tokens = openMcpTokenFile(join(folder, 'tokens.json'), { now: () => now });
    const { token } = await tokens.issue({ companyId: 'acme', agentId: 'planner', expiresAt: new Date('2026-02-01T00:00:00Z') });
    expect(await tokens.verify(token)).toMatchObject({ companyId: 'acme' });
    expect(await tokens.verify(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await tokens.verify('')).toBeUndefined();
    now = new Date('2026-02-01T00:00:00Z');
    expect(await tokens.verify(token)).toBeUndefined();

    const { token: other } = await tokens.issue({ companyId: 'acme', agentId: 'builder' });
    await appendFile(join(folder, 'tokens.json'), 'garbage');
    await expect(tokens.verify(other)).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
  });

  it('refuses a write while another process holds the lock, and loses no change', async () => {
    const path = join(folder, 'tokens.json');
    const tokens = openMcpTokenFile(path);
    await tokens.issue({ companyId: 'acme', agentId: 'a' });
    await writeFile(`${path}.lock`, '');
    await expect(tokens.issue({ companyId: 'acme', agentId: 'b' })).rejects.toMatchObject({ code: 'MEMORY_CONFLICT' });
    await rm(`${path}.lock`);
    await tokens.issue({ companyId: 'acme', agentId: 'c' });
    expect((await tokens.list()).map((record) => record.agentId)).toEqual(['a', 'c']);
  });
});
