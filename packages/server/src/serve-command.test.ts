import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { reachTestPostgres } from '../../service/src/test-support/postgres/reach-test-postgres';
import { createServeCommand } from './serve-command';

function captureOutput() {
  let stdout = '';
  let stderr = '';
  return { output: { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) }, stdout: () => stdout, stderr: () => stderr };
}

/** Runs `memplane serve` with `argv` until `work` is done with its URL, and resolves to the exit code and what it printed. */
async function whileServing(argv: string[], work: (url: string) => Promise<void>): Promise<{ code: number; stderr: string }> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
  let failure: unknown;
  const captured = captureOutput();
  const command = createServeCommand({
    stopped,
    listening: (url) => {
      work(url).catch((error: unknown) => (failure = error)).finally(stop);
    },
  });
  const code = await command.run(argv, captured.output);
  if (failure !== undefined) throw failure;
  return { code, stderr: captured.stderr() };
}

async function issue(argv: string[]): Promise<string> {
  const captured = captureOutput();
  expect(await createServeCommand().run(['token', 'issue', ...argv], captured.output), captured.stderr()).toBe(0);
  return captured.stdout().trim();
}

const call = async (url: string, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as any };
};

describe('memplane serve on the data folder', () => {
  it('goes from nothing to a served company: a token, the default binding, memory that outlives a restart', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'memplane-serve-'));
    try {
      const data = join(folder, 'data');
      const operator = await issue(['--operator', 'ops', '--data-dir', data]);
      const relay = await issue(['--operator', 'paperclip', '--act-as-agents', '--data-dir', data]);
      const agent = await issue(['--agent', 'planner', '--company', 'acme', '--data-dir', data, '--label', 'planner bot']);
      // The tokens are rows of the service's SQLite file, which only its owner may read.
      expect((await stat(join(data, 'memplane.db'))).mode & 0o077).toBe(0);
      const first = await whileServing(['--port', '0', '--data-dir', data, '--no-inspector'], async (url) => {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect((await call(url, agent, 'POST', '/v1/companies/acme/memory/records', { records: [{ text: 'Served over HTTP.' }] })).status).toBe(200);
        const bindings = await call(url, operator, 'GET', '/v1/companies/acme/control/bindings');
        expect(bindings.body.items).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
        expect((await call(url, operator, 'GET', '/v1/session')).body).toMatchObject({ allCompanies: true, companies: ['acme'] });
        const relayed = await fetch(`${url}/v1/companies/acme/memory/list`, { method: 'POST', headers: { authorization: `Bearer ${relay}`, 'content-type': 'application/json', 'memplane-agent-id': 'planner' }, body: '{}' });
        expect(relayed.status).toBe(200);
        const refused = await fetch(`${url}/v1/companies/acme/memory/list`, { method: 'POST', headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json', 'memplane-agent-id': 'planner' }, body: '{}' });
        expect(refused.status).toBe(403);
      });
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n/);
      const second = await whileServing(['--port', '0', '--data-dir', data], async (url) => {
        const listed = await call(url, agent, 'POST', '/v1/companies/acme/memory/list', {});
        expect(listed.body.items.map((item: { text: string }) => item.text)).toEqual(['Served over HTTP.']);
        const operations = await call(url, operator, 'GET', '/v1/companies/acme/explorer/operations?operation=record_upsert');
        expect(operations.body.items).toHaveLength(1);
      });
      expect(second.code).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('exits 2 on a usage error and on a port it cannot bind, 0 on --help and --version', async () => {
    const help = captureOutput();
    expect(await createServeCommand().run(['--help'], help.output)).toBe(0);
    expect(help.stdout()).toMatch(/--database-url <url>/);
    expect(await createServeCommand().run(['--version'], captureOutput().output)).toBe(0);
    const bad = captureOutput();
    expect(await createServeCommand().run(['token', 'issue', '--operator', 'ops', '--admin', '--company', 'acme'], bad.output)).toBe(2);
    expect(bad.stderr()).toMatch(/exactly one of --operator <id>, --admin or --agent <id>/);
    const misplaced = captureOutput();
    expect(await createServeCommand().run(['token', 'issue', '--agent', 'planner', '--company', 'acme', '--act-as-agents'], misplaced.output)).toBe(2);
    expect(misplaced.stderr()).toMatch(/--act-as-agents is for an --operator token/);
    const folder = await mkdtemp(join(tmpdir(), 'memplane-serve-'));
    try {
      const busy = await whileServing(['--port', '0', '--data-dir', folder, '--no-inspector'], async (url) => {
        const port = new URL(url).port;
        const clash = captureOutput();
        expect(await createServeCommand().run(['--port', port, '--data-dir', join(folder, 'other'), '--no-inspector'], clash.output)).toBe(2);
        expect(clash.stderr()).toMatch(/Cannot listen on 127\.0\.0\.1/);
      });
      expect(busy.code).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

// The Postgres server of @memplane/service's tests: started when stopped, or MEMPLANE_TEST_POSTGRES_URL.
const server = reachTestPostgres();

describe.skipIf(server.url === undefined)(`memplane serve --database-url${server.reason === undefined ? '' : ` (skipped: ${server.reason})`}`, () => {
  it('keeps bindings, the operation log and refusals in Postgres', async () => {
    const url = server.url!;
    const schema = `server_test_${randomBytes(4).toString('hex')}`;
    const folder = await mkdtemp(join(tmpdir(), 'memplane-serve-pg-'));
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    try {
      // The tokens go where the service is: memplane token names the same database.
      const database = ['--database-url', url, '--database-schema', schema];
      const admin = await issue(['--admin', '--company', 'acme', '--data-dir', folder, ...database]);
      const spy = await issue(['--agent', 'spy', '--company', 'globex', '--data-dir', folder, ...database]);
      expect((await direct.query(`SELECT role FROM "${schema}".memory_tokens ORDER BY role`)).rows).toEqual([{ role: 'admin' }, { role: 'agent' }]);
      await expect(stat(join(folder, 'memplane.db'))).rejects.toMatchObject({ code: 'ENOENT' });
      const served = await whileServing(['--port', '0', '--data-dir', folder, '--database-url', url, '--database-schema', schema, '--no-inspector'], async (base) => {
        expect((await call(base, admin, 'POST', '/v1/companies/acme/control/bindings', { key: 'scratch', providerId: 'memory' })).status).toBe(201);
        expect((await call(base, admin, 'POST', '/v1/companies/acme/memory/records', { bindingKey: 'scratch', records: [{ text: 'In Postgres.' }] })).status).toBe(200);
        expect((await call(base, spy, 'POST', '/v1/companies/acme/memory/records', { records: [{ text: 'planted' }] })).status).toBe(403);
        expect((await call(base, admin, 'GET', '/v1/companies/acme/explorer/operations')).body.items).toMatchObject([{ operation: 'record_upsert', bindingKey: 'scratch', status: 'succeeded' }]);
      });
      expect(served.code).toBe(0);
      const bindings = await direct.query(`SELECT company_id, key, provider_id FROM "${schema}".memory_bindings ORDER BY key`);
      // Creating a binding starts the company as the operator made it: no zero-config default beside it.
      expect(bindings.rows).toEqual([{ company_id: 'acme', key: 'scratch', provider_id: 'memory' }]);
      const operations = await direct.query(`SELECT company_id, operation, status, error_code FROM "${schema}".memory_operations ORDER BY position`);
      expect(operations.rows).toEqual([
        { company_id: 'acme', operation: 'record_upsert', status: 'succeeded', error_code: null },
        { company_id: 'globex', operation: 'record_upsert', status: 'failed', error_code: 'MEMORY_SCOPE_VIOLATION' },
      ]);
      expect(JSON.stringify((await direct.query(`SELECT * FROM "${schema}".memory_operations`)).rows)).not.toContain('planted');
    } finally {
      await direct.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await direct.end();
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
