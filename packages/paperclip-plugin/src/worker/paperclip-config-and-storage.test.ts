import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginSqliteFileName } from './paperclip-service-host';
import { company } from './test-support/paperclip-fixtures';
import { startWorker, type StartedWorker } from './test-support/worker-harness';

const system = (companyId: string) => ({ actor: { kind: 'system', component: 'test' }, companyId }) as const;
const twoBindings = {
  bindings: [
    { key: 'default', providerId: 'markdown' },
    { key: 'research', providerId: 'markdown', config: { root: 'research' } },
  ],
  default: 'default',
};

const started: StartedWorker[] = [];
afterEach(async () => {
  for (const worker of started.splice(0)) await worker.stop();
});

describe('config changes', () => {
  it('applies a company save to that company alone, through the control plane', async () => {
    const worker = await startWorker({ acme: twoBindings, globex: twoBindings });
    started.push(worker);
    worker.harness.seed({ companies: [company('acme'), company('globex')] });
    await worker.harness.executeTool('memory_search', { query: 'warm up' }, { companyId: 'acme', agentId: 'planner', runId: 'r1', projectId: 'p' });
    await worker.harness.executeTool('memory_search', { query: 'warm up' }, { companyId: 'globex', agentId: 'planner', runId: 'r2', projectId: 'p' });

    // The host delivers acme's save with acme's id: globex keeps the config it loaded.
    await worker.config.save('acme', { ...twoBindings, agents: { planner: 'research' } });

    expect(await worker.service.control(system('acme')).resolve('planner')).toMatchObject({ resolvedBy: 'agent', binding: { key: 'research' } });
    expect(await worker.service.control(system('globex')).resolve('planner')).toMatchObject({ resolvedBy: 'company', binding: { key: 'default' } });
    const activity = await worker.service.control(system('acme')).listActivity({ limit: 50 });
    expect(activity.items.some((entry) => entry.actor.kind === 'system' && JSON.stringify(entry).includes('paperclip-plugin'))).toBe(true);
  });
});

// The Postgres server of @memplane/service's tests: started when stopped, or MEMPLANE_TEST_POSTGRES_URL.
function postgresUrl(): { url?: string; reason?: string } {
  const script = fileURLToPath(new URL('../../../service/scripts/ensure-postgres.sh', import.meta.url));
  try {
    const lines = execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).trim().split('\n');
    return { url: lines.at(-1) };
  } catch (error) {
    return { reason: `no PostgreSQL server: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` };
  }
}

const server = postgresUrl();

describe.skipIf(server.url === undefined)(`storage on Postgres${server.reason === undefined ? '' : ` (skipped: ${server.reason})`}`, () => {
  it('keeps bindings and the log in Postgres, with the connection string from a secret reference', async () => {
    const schema = `paperclip_test_${randomBytes(4).toString('hex')}`;
    const connectionSecretId = '0c8f6a52-9d0e-4a7b-8f51-3e2d1c0b9a87';
    const config = { acme: { storage: { postgres: { connectionString: { type: 'secret_ref', secretId: connectionSecretId }, schema } } } };
    const secrets = (harness: StartedWorker['harness']) => {
      // As the host: only with a company, for the secret at the config path it was saved at.
      harness.ctx.secrets.resolve = async (reference, options) => {
        const bound = typeof reference === 'object' && reference.secretId === connectionSecretId && options?.companyId !== undefined && options.configPath === 'storage.postgres.connectionString';
        if (bound) return server.url!;
        throw new Error('Secret is not bound to the plugin');
      };
    };
    const first = await startWorker(config, {}, secrets);
    started.push(first);
    first.harness.seed({ companies: [company('acme')] });
    const note = await first.harness.executeTool('memory_note', { text: 'Postgres keeps the plugin log.' }, { companyId: 'acme', agentId: 'planner', runId: 'run-pg', projectId: 'p' });
    expect(note.error).toBeUndefined();
    await first.service.flush();
    await expect(access(join(first.folder, pluginSqliteFileName))).rejects.toThrow();

    // A second worker on the same Postgres sees the first one's binding and log.
    const second = await startWorker(config, {}, secrets);
    started.push(second);
    const operations = await second.operations('acme', { runId: 'run-pg' });
    try {
      expect(operations.map((entry) => [entry.operation, entry.status])).toEqual([['record_upsert', 'succeeded']]);
      expect((await second.service.control(system('acme')).listBindings()).map((binding) => binding.key)).toEqual(['default']);
    } finally {
      const { default: pg } = await import('pg');
      const direct = new pg.Client({ connectionString: server.url! });
      await direct.connect();
      await direct.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await direct.end();
    }
  }, 60_000);
});
