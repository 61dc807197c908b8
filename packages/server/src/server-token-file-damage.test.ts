import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { createMemoryService } from '@memplane/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemplaneServer } from './create-memplane-server';
import { serveMemplane, type ServedMemplane } from './open-memplane-server';
import { createServeCommand } from './serve-command';
import { serverTokenFileName } from './server-token-file';

let folder: string;
let data: string;
let tokenFile: string;
let served: ServedMemplane;
let token: string;
let intact: string;
const logged: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-token-damage-'));
  data = join(folder, 'data');
  tokenFile = join(data, serverTokenFileName);
  served = await serveMemplane({ dataDirectory: data, port: 0, inspectorDirectory: false, rateLimit: false, log: (line) => logged.push(line) });
  token = (await served.tokens.issue({ role: 'operator', operatorId: 'ops' })).token;
  intact = await readFile(tokenFile, 'utf8');
});
afterAll(async () => {
  await served.close();
  await rm(folder, { recursive: true, force: true });
});

async function session(bearer: string | undefined): Promise<{ status: number; text: string; body: any; authenticate: string | null }> {
  const response = await fetch(`${served.http.url}/v1/session`, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text), authenticate: response.headers.get('www-authenticate') };
}

/** Puts the intact token file back, whatever the damage left at its path. */
async function repair(): Promise<void> {
  await chmod(tokenFile, 0o600).catch(() => undefined);
  await rm(tokenFile, { recursive: true, force: true });
  await writeFile(tokenFile, intact, { mode: 0o600 });
}

const runsAsRoot = process.getuid?.() === 0;

/** Each way a token file is found damaged, and the words its operator log line holds. */
const damages: Array<{ name: string; skip?: string; damage(): Promise<void>; names: RegExp }> = [
  { name: 'truncated JSON', damage: () => writeFile(tokenFile, intact.slice(0, Math.floor(intact.length / 2))), names: /is damaged: it is not JSON/ },
  { name: 'JSON of the wrong shape', damage: () => writeFile(tokenFile, JSON.stringify({ version: 1, tokens: [{ id: 'tok_1', role: 'owner' }] })), names: /is damaged: tokens\.0\./ },
  { name: 'a JSON array', damage: () => writeFile(tokenFile, '[]'), names: /is damaged: the file / },
  {
    name: 'a folder in place of the file',
    damage: async () => {
      await rm(tokenFile);
      await mkdir(tokenFile);
    },
    names: /cannot be read \(EISDIR\)/,
  },
  {
    name: 'a symbolic link to itself',
    damage: async () => {
      await rm(tokenFile);
      await symlink(tokenFile, tokenFile);
    },
    names: /cannot be read \(ELOOP\)/,
  },
  {
    name: 'a file its reader may not read',
    // root reads any file whatever its mode, so the damage cannot be made as root.
    ...(runsAsRoot ? { skip: 'the tests run as root, who reads a file of mode 000' } : {}),
    damage: () => chmod(tokenFile, 0o000),
    names: /cannot be read \(EACCES\)/,
  },
];

describe('a damaged server token file', () => {
  for (const { name, skip, damage, names } of damages) {
    it.skipIf(skip !== undefined)(`${name}${skip === undefined ? '' : ` (skipped: ${skip})`}: 401 for every caller, with nothing of the file; one line naming the problem for the operator; tokens work again once repaired`, async () => {
      expect((await session(token)).status).toBe(200);
      logged.length = 0;
      await damage();
      for (const bearer of [token, token, undefined, 'mps_not-a-token', 'not-even-the-prefix']) {
        const answer = await session(bearer);
        expect(answer.status, String(bearer)).toBe(401);
        expect(answer.authenticate).toBe('Bearer realm="memplane"');
        expect(answer.body).toMatchObject({ status: 401, code: 'SERVER_UNAUTHENTICATED' });
        // Nothing of where the file is, what it holds or what is wrong with it.
        for (const secret of [data, serverTokenFileName, 'sha256', 'damaged', 'JSON', 'EISDIR', 'ELOOP', 'EACCES', 'cannot be read']) expect(answer.text).not.toContain(secret);
      }
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(tokenFile);
      expect(logged[0]).toMatch(names);

      await repair();
      expect((await session(token)).status).toBe(200);
      expect(logged).toHaveLength(1);
    });
  }

  it('is reported on the standard error of memplane serve, once, while the caller gets 401', async () => {
    const served = join(folder, 'served');
    const issued: string[] = [];
    const output = { stdout: (text: string) => void issued.push(text), stderr: () => undefined };
    expect(await createServeCommand().run(['token', 'issue', '--operator', 'ops', '--data-dir', served], output)).toBe(0);
    const operator = issued.join('').trim();
    let stderr = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
    let failure: unknown;
    const command = createServeCommand({
      stopped,
      listening: (url) => {
        void (async () => {
          const call = (bearer: string) => fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${bearer}` } });
          expect((await call(operator)).status).toBe(200);
          await writeFile(join(served, serverTokenFileName), '{"version":1,"tokens":[');
          for (let attempt = 0; attempt < 3; attempt += 1) {
            const response = await call(operator);
            expect(response.status).toBe(401);
            expect(await response.text()).not.toContain(served);
          }
        })()
          .catch((error: unknown) => (failure = error))
          .finally(stop);
      },
    });
    const code = await command.run(['--port', '0', '--data-dir', served, '--no-inspector'], { stdout: () => undefined, stderr: (text) => void (stderr += text) });
    if (failure !== undefined) throw failure;
    expect(code).toBe(0);
    const lines = stderr.split('\n').filter((line) => line.includes('tokens are refused'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith(`memplane serve: tokens are refused: The token file ${join(served, serverTokenFileName)} is damaged: it is not JSON (`)).toBe(true);
  });
});

describe('a token store that fails while a session lists the companies its tokens name', () => {
  it('answers the session with no company and no path, and tells the operator', async () => {
    const service = await createMemoryService();
    const lines: string[] = [];
    const server = createMemplaneServer({
      service,
      inspectorDirectory: false,
      rateLimit: false,
      verifyToken: async () => ({ id: 'tok_0000000000000001', role: 'operator', operatorId: 'ops', hash: 'sha256:unused', createdAt: new Date(0).toISOString() }),
      knownCompanies: async () => {
        throw new MemoryConfigurationError({ message: 'The token file /srv/secret/server-tokens.json is damaged: it is not JSON.' });
      },
      log: (line) => lines.push(line),
    });
    try {
      const response = await server.app.fetch(new Request('http://127.0.0.1/v1/session', { headers: { authorization: 'Bearer mps_any' } }));
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ role: 'operator', companies: [], allCompanies: true });
      expect(text).not.toContain('/srv/secret');
      expect(lines).toEqual([expect.stringContaining('server-tokens.json is damaged')]);
    } finally {
      await service.close();
    }
  });
});
