import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpHttp, type ServingMcpHttp } from './test-support/mcp-http-serving';
import { issueAgentToken } from './test-support/mcp-test-tokens';

let folder: string;
let data: string;
let served: ServingMcpHttp;
let token: string;
let tokenId: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-token-store-damage-'));
  data = join(folder, 'data');
  ({ token, tokenId } = await issueAgentToken(data, { companyId: 'acme', agentId: 'planner' }));
  served = await serveMcpHttp(data);
});
afterAll(async () => {
  await served.stop();
  await rm(folder, { recursive: true, force: true });
});

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** An `initialize` POST with this bearer (or none), answered in full. */
function post(bearer: string | undefined): Promise<{ status: number; text: string; authenticate: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) };
    const request = httpRequest(served.url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, authenticate: response.headers['www-authenticate'] }));
    });
    request.on('error', reject);
    request.end(initialize);
  });
}

/** Runs SQL on the data folder's database from a second connection, as another process (or a person at a prompt) would. */
function onDatabase<T>(work: (database: Database.Database) => T): T {
  const database = new Database(join(data, 'memplane.db'));
  try {
    return work(database);
  } finally {
    database.close();
  }
}

const tokenLines = () => served.logged.filter((line) => line.includes('tokens are refused'));

describe('a token store that fails under memplane-mcp --transport http', () => {
  it('answers 401 to every caller with nothing of the cause, tells the operator once, and honours tokens again once repaired', async () => {
    expect((await post(token)).status).toBe(200);
    const before = tokenLines().length;
    onDatabase((database) => database.exec('ALTER TABLE memory_tokens RENAME TO memory_tokens_away'));
    try {
      for (const bearer of [token, token, undefined, 'mpk_not-a-token']) {
        const answer = await post(bearer);
        expect(answer.status, String(bearer)).toBe(401);
        expect(String(answer.authenticate)).toMatch(/^Bearer error="invalid_token"/);
        for (const secret of [data, 'memplane.db', 'memory_tokens', 'no such table', 'SQLITE']) expect(answer.text).not.toContain(secret);
      }
      const lines = tokenLines().slice(before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^memplane-mcp: tokens are refused: /);
    } finally {
      onDatabase((database) => database.exec('ALTER TABLE memory_tokens_away RENAME TO memory_tokens'));
    }
    expect((await post(token)).status).toBe(200);
    expect(tokenLines().slice(before)).toHaveLength(1);
  });
});

describe('a token row edited in the database', () => {
  const edits: Array<{ name: string; edit: (database: Database.Database) => void }> = [
    { name: 'a grant that is not JSON', edit: (database) => database.prepare('UPDATE memory_tokens SET grant_json = ? WHERE id = ?').run('{"companyId":', tokenId) },
    {
      name: 'an agent grant widened with a field of an operator',
      edit: (database) => database.prepare('UPDATE memory_tokens SET grant_json = ? WHERE id = ?').run(JSON.stringify({ companyId: 'acme', agentId: 'planner', companyIds: ['globex'] }), tokenId),
    },
    { name: 'an agent turned into an operator', edit: (database) => database.prepare("UPDATE memory_tokens SET role = 'operator' WHERE id = ?").run(tokenId) },
    { name: 'a revocation date that is no date', edit: (database) => database.prepare("UPDATE memory_tokens SET revoked_at = 'never' WHERE id = ?").run(tokenId) },
  ];
  for (const { name, edit } of edits) {
    it(`${name}: the token is refused (401), never guessed at`, async () => {
      const original = onDatabase((database) => database.prepare('SELECT role, grant_json, revoked_at FROM memory_tokens WHERE id = ?').get(tokenId)) as { role: string; grant_json: string; revoked_at: string | null };
      onDatabase(edit);
      try {
        expect((await post(token)).status).toBe(401);
      } finally {
        onDatabase((database) => database.prepare('UPDATE memory_tokens SET role = ?, grant_json = ?, revoked_at = ? WHERE id = ?').run(original.role, original.grant_json, original.revoked_at, tokenId));
      }
      expect((await post(token)).status).toBe(200);
    });
  }
});
