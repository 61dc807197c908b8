import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpTokenFile, tokenFileName } from './mcp-token-file';
import { serveMcpHttp, type ServingMcpHttp } from './test-support/mcp-http-serving';

let folder: string;
let data: string;
let tokenFile: string;
let served: ServingMcpHttp;
let token: string;
let intact: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-token-damage-'));
  data = join(folder, 'data');
  tokenFile = join(data, tokenFileName);
  token = (await openMcpTokenFile(tokenFile).issue({ companyId: 'acme', agentId: 'planner' })).token;
  intact = await readFile(tokenFile, 'utf8');
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

async function repair(): Promise<void> {
  await chmod(tokenFile, 0o600).catch(() => undefined);
  await rm(tokenFile, { recursive: true, force: true });
  await writeFile(tokenFile, intact, { mode: 0o600 });
}

const runsAsRoot = process.getuid?.() === 0;
const tokenLines = () => served.logged.filter((line) => line.includes('tokens are refused'));

const damages: Array<{ name: string; skip?: string; damage(): Promise<void>; names: RegExp }> = [
  { name: 'truncated JSON', damage: () => writeFile(tokenFile, intact.slice(0, Math.floor(intact.length / 2))), names: /is damaged: it is not JSON/ },
  { name: 'JSON of the wrong shape', damage: () => writeFile(tokenFile, JSON.stringify({ version: 1, tokens: [{ id: 'tok_1', companyId: 7 }] })), names: /is damaged: tokens\.0\./ },
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
    ...(runsAsRoot ? { skip: 'the tests run as root, who reads a file of mode 000' } : {}),
    damage: () => chmod(tokenFile, 0o000),
    names: /cannot be read \(EACCES\)/,
  },
];

describe('a damaged MCP token file under memplane-mcp --transport http', () => {
  for (const { name, skip, damage, names } of damages) {
    it.skipIf(skip !== undefined)(`${name}${skip === undefined ? '' : ` (skipped: ${skip})`}: 401 for every caller, with nothing of the file; one line naming the problem on the operator's log; tokens work again once repaired`, async () => {
      expect((await post(token)).status).toBe(200);
      const before = tokenLines().length;
      await damage();
      for (const bearer of [token, token, undefined, 'mpt_not-a-token']) {
        const answer = await post(bearer);
        expect(answer.status, String(bearer)).toBe(401);
        expect(String(answer.authenticate)).toMatch(/^Bearer error="invalid_token"/);
        for (const secret of [data, tokenFileName, 'sha256', 'damaged', 'JSON', 'EISDIR', 'ELOOP', 'EACCES', 'cannot be read']) expect(answer.text).not.toContain(secret);
      }
      const lines = tokenLines().slice(before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(tokenFile);
      expect(lines[0]).toMatch(names);
      expect(lines[0]).toMatch(/^memplane-mcp: tokens are refused: /);

      await repair();
      expect((await post(token)).status).toBe(200);
      expect(tokenLines().slice(before)).toHaveLength(1);
    });
  }
});
