import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { createMemoryService } from '@memplane/service';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemplaneServer } from './create-memplane-server';
import { serveMemplane, type ServedMemplane } from './open-memplane-server';
import { createServeCommand } from './serve-command';

let folder: string;
let data: string;
let served: ServedMemplane;
let token: string;
let tokenId: string;
const logged: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-token-store-damage-'));
  data = join(folder, 'data');
  served = await serveMemplane({ dataDirectory: data, port: 0, inspectorDirectory: false, rateLimit: false, log: (line) => logged.push(line) });
  ({
    token,
    record: { id: tokenId },
  } = await served.tokens.issue({ role: 'operator', operatorId: 'ops' }));
});
afterAll(async () => {
  await served.close();
  await rm(folder, { recursive: true, force: true });
});

async function session(bearer: string | undefined, url = served.http.url): Promise<{ status: number; text: string; body: any; authenticate: string | null }> {
  const response = await fetch(`${url}/v1/session`, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text), authenticate: response.headers.get('www-authenticate') };
}

/** Runs SQL on the data folder's database from a second connection, as another process (or a person at a prompt) would. */
function onDatabase(sql: string, ...parameters: unknown[]): void {
  const database = new Database(join(data, 'memplane.db'));
  try {
    database.prepare(sql).run(...parameters);
  } finally {
    database.close();
  }
}

describe('a token store that fails', () => {
  it('answers 401 to every caller with nothing of the cause, tells the operator once, and honours tokens again once repaired', async () => {
    expect((await session(token)).status).toBe(200);
    logged.length = 0;
    onDatabase('ALTER TABLE memory_tokens RENAME TO memory_tokens_away');
    try {
      for (const bearer of [token, token, undefined, 'mpk_not-a-token', 'not-even-the-prefix']) {
        const answer = await session(bearer);
        expect(answer.status, String(bearer)).toBe(401);
        expect(answer.authenticate).toBe('Bearer realm="memplane"');
        expect(answer.body).toMatchObject({ status: 401, code: 'SERVER_UNAUTHENTICATED' });
        // Nothing of where the database is, what it holds or what is wrong with it.
        for (const secret of [data, 'memplane.db', 'memory_tokens', 'sqlite', 'SQLITE', 'no such table']) expect(answer.text).not.toContain(secret);
      }
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/^tokens are refused: /);
    } finally {
      onDatabase('ALTER TABLE memory_tokens_away RENAME TO memory_tokens');
    }
    expect((await session(token)).status).toBe(200);
    expect(logged).toHaveLength(1);
  });
});

describe('a token row edited in the database', () => {
  const edits: Array<{ name: string; sql: string; parameters: unknown[] }> = [
    { name: 'a grant that is not JSON', sql: 'UPDATE memory_tokens SET grant_json = ? WHERE id = ?', parameters: ['{"operatorId":'] },
    { name: 'an operator grant widened with a field of another role', sql: 'UPDATE memory_tokens SET grant_json = ? WHERE id = ?', parameters: [JSON.stringify({ operatorId: 'ops', agentId: 'root' })] },
    { name: 'an operator turned into an agent without a company', sql: "UPDATE memory_tokens SET role = 'agent' WHERE id = ?", parameters: [] },
    { name: 'a creation date that is no date', sql: "UPDATE memory_tokens SET created_at = 'yesterday' WHERE id = ?", parameters: [] },
  ];
  for (const { name, sql, parameters } of edits) {
    it(`${name}: the token is refused (401), never guessed at`, async () => {
      const database = new Database(join(data, 'memplane.db'));
      const original = database.prepare('SELECT role, grant_json, created_at FROM memory_tokens WHERE id = ?').get(tokenId) as { role: string; grant_json: string; created_at: string };
      database.close();
      onDatabase(sql, ...parameters, tokenId);
      try {
        expect((await session(token)).status).toBe(401);
      } finally {
        onDatabase('UPDATE memory_tokens SET role = ?, grant_json = ?, created_at = ? WHERE id = ?', original.role, original.grant_json, original.created_at, tokenId);
      }
      expect((await session(token)).status).toBe(200);
    });
  }
});

describe('an old token file that is damaged', () => {
  it('is left in place with one line for the operator, and the server serves the tokens of the store', async () => {
    const other = join(folder, 'old-damaged');
    const first = await serveMemplane({ dataDirectory: other, port: 0, inspectorDirectory: false });
    const issued = await first.tokens.issue({ role: 'operator', operatorId: 'ops' });
    await first.close();
    await writeFile(join(other, 'server-tokens.json'), '{"version":1,"tokens":[');
    const lines: string[] = [];
    const second = await serveMemplane({ dataDirectory: other, port: 0, inspectorDirectory: false, log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual([expect.stringContaining(join(other, 'server-tokens.json'))]);
      expect((await stat(join(other, 'server-tokens.json'))).isFile()).toBe(true);
      expect((await session(issued.token, second.http.url)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('memplane serve', () => {
  it('reports a failing token store on its standard error, once, while the caller gets 401', async () => {
    const servedFolder = join(folder, 'served');
    const issued: string[] = [];
    const output = { stdout: (text: string) => void issued.push(text), stderr: () => undefined };
    expect(await createServeCommand().run(['token', 'issue', '--operator', 'ops', '--data-dir', servedFolder], output)).toBe(0);
    const operator = issued.join('').trim();
    let stderr = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
    let failure: unknown;
    const damage = (sql: string) => {
      const database = new Database(join(servedFolder, 'memplane.db'));
      try {
        database.exec(sql);
      } finally {
        database.close();
      }
    };
    const command = createServeCommand({
      stopped,
      listening: (url) => {
        void (async () => {
          const call = (bearer: string) => fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${bearer}` } });
          expect((await call(operator)).status).toBe(200);
          damage('ALTER TABLE memory_tokens RENAME TO memory_tokens_away');
          for (let attempt = 0; attempt < 3; attempt += 1) {
            const response = await call(operator);
            expect(response.status).toBe(401);
            expect(await response.text()).not.toContain(servedFolder);
          }
          damage('ALTER TABLE memory_tokens_away RENAME TO memory_tokens');
          expect((await call(operator)).status).toBe(200);
        })()
          .catch((error: unknown) => (failure = error))
          .finally(stop);
      },
    });
    const code = await command.run(['--port', '0', '--data-dir', servedFolder, '--no-inspector'], { stdout: () => undefined, stderr: (text) => void (stderr += text) });
    if (failure !== undefined) throw failure;
    expect(code).toBe(0);
    const lines = stderr.split('\n').filter((line) => line.includes('tokens are refused'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith('memplane serve: tokens are refused: ')).toBe(true);
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
      verifyToken: async () => ({ id: 'tok_0000000000000001', role: 'operator', operatorId: 'ops', createdAt: new Date(0).toISOString() }),
      knownCompanies: async () => {
        throw new MemoryConfigurationError({ message: 'The token store at /srv/secret/memplane.db cannot be read.' });
      },
      log: (line) => lines.push(line),
    });
    try {
      const response = await server.app.fetch(new Request('http://127.0.0.1/v1/session', { headers: { authorization: 'Bearer mpk_any' } }));
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ role: 'operator', companies: [], allCompanies: true });
      expect(text).not.toContain('/srv/secret');
      expect(lines).toEqual([expect.stringContaining('cannot be read')]);
    } finally {
      await service.close();
    }
  });
});
