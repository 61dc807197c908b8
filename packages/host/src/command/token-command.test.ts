import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifierSchema } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openMemplaneHost } from '../open-memplane-host';
import { openHashedTokenFile } from '../tokens/hashed-token-file';
import { createTokenCommand } from './token-command';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-token-command-'));
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await createTokenCommand().run(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

async function verify(token: string) {
  const host = await openMemplaneHost({ dataDirectory: folder });
  try {
    return await host.tokens.verify(token);
  } finally {
    await host.close();
  }
}

describe('memplane token', () => {
  it('issues a token of each role, printed once on standard output, that every host on the folder honours', async () => {
    const issued = [
      await run('issue', '--operator', 'ops', '--company', 'acme', 'globex', '--act-as-agents', '--data-dir', folder),
      await run('issue', '--admin', '--company', 'acme', '--user', 'ada', '--label', 'ada laptop', '--data-dir', folder),
      await run('issue', '--agent', 'planner', '--company', 'acme', '--project', 'apollo', '--expires-in-days', '30', '--requests-per-minute', '60', '--data-dir', folder),
    ];
    for (const { code, stdout, stderr } of issued) {
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^mpk_[A-Za-z0-9_-]{43}\n$/);
      expect(stderr).toMatch(/^Issued tok_\S+ \(.+\)\. Store the token now; it is not kept\.\n$/);
    }
    expect(await verify(issued[0]!.stdout.trim())).toMatchObject({ role: 'operator', operatorId: 'ops', companyIds: ['acme', 'globex'], actAsAgents: true });
    expect(await verify(issued[1]!.stdout.trim())).toMatchObject({ role: 'admin', companyId: 'acme', userId: 'ada', label: 'ada laptop' });
    expect(await verify(issued[2]!.stdout.trim())).toMatchObject({ role: 'agent', agentId: 'planner', projectId: 'apollo', requestsPerMinute: 60, expiresAt: expect.any(String) });
  });

  it('lists tokens without them, and revokes one so that it is refused', async () => {
    const { stdout: token, stderr } = await run('issue', '--agent', 'planner', '--company', 'acme', '--data-dir', folder);
    const id = /Issued (tok_\S+)/.exec(stderr)?.[1] ?? '';
    const listed = await run('list', '--data-dir', folder);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(`id\trole\tcompanies\tsubject\tproject\tstate\texpires\tlabel\n${id}\tagent\tacme\tplanner\t\tactive\t\t\n`);
    expect(listed.stdout).not.toContain(token.trim().slice(4));
    expect(await run('revoke', id, '--data-dir', folder)).toMatchObject({ code: 0, stdout: `Revoked ${id}.\n` });
    expect(await verify(token.trim())).toBeUndefined();
    expect((await run('list', '--data-dir', folder)).stdout).toContain(`${id}\tagent\tacme\tplanner\t\trevoked`);
    expect(await run('revoke', 'tok_000000000000000000000000', '--data-dir', folder)).toMatchObject({ code: 1, stderr: 'No token tok_000000000000000000000000.\n' });
  });

  it('imports the old token files of the folder and says so', async () => {
    const old = openHashedTokenFile(join(folder, 'mcp-tokens.json'), {
      grant: z.strictObject({ companyId: identifierSchema, agentId: identifierSchema }),
      tokenPrefix: 'mpt_',
    });
    const { token } = await old.issue({ companyId: 'acme', agentId: 'claude' });
    const listed = await run('list', '--data-dir', folder);
    expect(listed.stderr).toContain(`imported 1 token(s) from ${join(folder, 'mcp-tokens.json')}`);
    expect(listed.stdout).toContain('\tagent\tacme\tclaude\t');
    expect(await verify(token)).toMatchObject({ role: 'agent', agentId: 'claude' });
  });

  it('answers a usage error with exit code 2 and creates nothing', async () => {
    const data = join(folder, 'never');
    const wrong = [
      ['issue', '--data-dir', data],
      ['issue', '--operator', 'ops', '--admin', '--data-dir', data],
      ['issue', '--admin', '--data-dir', data],
      ['issue', '--agent', 'planner', '--company', 'acme', 'globex', '--data-dir', data],
      ['issue', '--admin', '--company', 'acme', '--act-as-agents', '--data-dir', data],
      ['issue', '--admin', '--company', 'acme', '--project', 'apollo', '--data-dir', data],
      ['issue', '--operator', 'ops', '--expires-in-days', '0', '--data-dir', data],
      ['issue', '--operator', 'ops', '--requests-per-minute', 'many', '--data-dir', data],
      ['issue', '--operator', 'o\u0000ps', '--data-dir', data],
      ['issue', '--operator', 'ops', '--unknown', '--data-dir', data],
      ['revoke', '--data-dir', data],
      ['rotate', '--data-dir', data],
    ];
    for (const argv of wrong) {
      const { code, stderr } = await run(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/memplane token/);
    }
    expect(existsSync(data)).toBe(false);
  });

  it('prints its usage under the name it is mounted as', async () => {
    let out = '';
    const code = await createTokenCommand().run(['issue', '--help'], { stdout: (text) => (out += text), stderr: () => undefined }, { commandName: 'memplane serve token' });
    expect(code).toBe(0);
    expect(out).toContain('Usage: memplane serve token issue');
    expect(out).toContain('--project <id>');
  });
});
