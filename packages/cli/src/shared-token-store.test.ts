import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { reachTestPostgres } from '../../service/src/test-support/postgres/reach-test-postgres';
import { runMemplaneCli } from './run-memplane-cli';

const bin = fileURLToPath(new URL('./memplane.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.workspace-sources.json', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

// The Postgres server of @memplane/service's tests: started when stopped, or MEMPLANE_TEST_POSTGRES_URL.
const postgres = reachTestPostgres();

/** A spawned `memplane` process that serves until it is stopped, and the URL it listens on. */
interface Served {
  url: string;
  stop(): Promise<void>;
}

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => stopChild(child)));
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}

/** Spawns `memplane <args>` and resolves once its standard error says where it listens. */
function spawnServing(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [tsxCli, '--tsconfig', tsconfig, bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  return new Promise((resolveServed, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => {
      lines.push(line);
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url !== undefined) resolveServed({ url, stop: () => stopChild(child) });
    });
    child.once('exit', (code) => reject(new Error(`memplane ${args.join(' ')} exited with ${code} before listening:\n${lines.join('\n')}`)));
  });
}

/** `memplane token …` in this process: a fourth process on the same database, as an operator at a shell. */
async function tokenCommand(args: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await runMemplaneCli(['token', ...args], { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  expect(code, stderr).toBe(0);
  return stdout.trim();
}

/** The status `memplane serve` answers `GET /v1/session` with. */
async function serveStatus(url: string, token: string): Promise<number> {
  return (await fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${token}` } })).status;
}

/** The status `memplane mcp --transport http` answers an `initialize` with. */
async function mcpStatus(url: string, token: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
  const response = await fetch(url, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
  await response.body?.cancel();
  return response.status;
}

/**
 * Two `memplane serve` and one `memplane mcp --transport http`, each its own process on one
 * database: a token issued by `memplane token` works in all three, and once revoked it is refused
 * by every one of them at its very next request.
 */
async function oneStoreForThreeProcesses(location: (index: number) => string[]): Promise<void> {
  const [serveA, serveB, mcp] = await Promise.all([
    spawnServing(['serve', '--port', '0', '--no-inspector', ...location(0)]),
    spawnServing(['serve', '--port', '0', '--no-inspector', ...location(1)]),
    spawnServing(['mcp', '--transport', 'http', '--port', '0', ...location(2)]),
  ]);
  // An agent token (no project) is one every surface honours.
  const token = await tokenCommand(['issue', '--agent', 'planner', '--company', 'acme', ...location(3)]);
  expect(await serveStatus(serveA!.url, token)).toBe(200);
  expect(await serveStatus(serveB!.url, token)).toBe(200);
  expect(await mcpStatus(mcp!.url, token)).toBe(200);

  const listing = await tokenCommand(['list', ...location(3)]);
  const tokenId = /^(tok_\S+)\tagent\tacme\tplanner\t/m.exec(listing)?.[1];
  expect(tokenId, listing).toBeDefined();
  await tokenCommand(['revoke', tokenId!, ...location(3)]);
  // The very next request of each process reads the store: no cache, no delay.
  expect(await serveStatus(serveA!.url, token)).toBe(401);
  expect(await serveStatus(serveB!.url, token)).toBe(401);
  expect(await mcpStatus(mcp!.url, token)).toBe(401);
}

describe('one token store for memplane serve and memplane mcp (three processes, one database)', () => {
  it('on one SQLite data folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'memplane-shared-tokens-'));
    try {
      await oneStoreForThreeProcesses(() => ['--data-dir', folder]);
    } finally {
      await Promise.all(running.splice(0).map((child) => stopChild(child)));
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(postgres.url === undefined)(`on one Postgres database, each process with its own data folder${postgres.reason === undefined ? '' : ` (skipped: ${postgres.reason})`}`, async () => {
    const schema = `tokens_${randomBytes(4).toString('hex')}`;
    const root = await mkdtemp(join(tmpdir(), 'memplane-shared-tokens-pg-'));
    try {
      // memplane serve names the database --database-url, memplane mcp --postgres: the same database and schema.
      await oneStoreForThreeProcesses((index) => {
        const folder = ['--data-dir', join(root, `process-${index}`)];
        return index === 2 ? [...folder, '--postgres', postgres.url!, '--postgres-schema', schema] : [...folder, '--database-url', postgres.url!, '--database-schema', schema];
      });
    } finally {
      await Promise.all(running.splice(0).map((child) => stopChild(child)));
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
