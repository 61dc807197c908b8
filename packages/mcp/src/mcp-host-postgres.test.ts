import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { reachTestPostgres } from '../../service/src/test-support/postgres/reach-test-postgres';
import { openMemplaneHost } from '@memplane/host';
import { connectInProcess } from './test-support/mcp-test-service';

// The Postgres server of @memplane/service's tests: started when stopped, or MEMPLANE_TEST_POSTGRES_URL.
const server = reachTestPostgres();

describe.skipIf(server.url === undefined)(`memplane-mcp --postgres${server.reason === undefined ? '' : ` (skipped: ${server.reason})`}`, () => {
  it('keeps bindings and the operation log in Postgres, and markdown memory in the data folder', async () => {
    const url = server.url!;
    const schema = `mcp_test_${randomBytes(4).toString('hex')}`;
    const folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-pg-'));
    try {
      const host = await openMemplaneHost({ dataDirectory: folder, databaseUrl: url, databaseSchema: schema });
      const { service } = host;
      await host.ensureDefaultBinding('acme');
      const client = await connectInProcess(service, { companyId: 'acme', agentId: 'planner', runId: 'run-pg' });
      await client.callTool({ name: 'memory_note', arguments: { text: 'Postgres keeps the log.' } });
      expect((await client.callTool({ name: 'memory_search', arguments: { query: 'log', companyId: 'globex' } })).isError).toBe(true);
      await client.close();
      await service.close();

      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      try {
        const bindings = await direct.query(`SELECT key, provider_id FROM "${schema}".memory_bindings`);
        expect(bindings.rows).toEqual([{ key: 'default', provider_id: 'markdown' }]);
        const operations = await direct.query(`SELECT operation, actor_id, status, error_code, details_json AS details FROM "${schema}".memory_operations ORDER BY position`);
        expect(operations.rows).toMatchObject([
          { operation: 'record_upsert', actor_id: 'planner', status: 'succeeded' },
          // A refused argument is a failed operation of its tool, keeping the field name and not the value.
          { operation: 'query', actor_id: 'planner', status: 'failed', error_code: 'MEMORY_VALIDATION', details: { refusedBy: 'memory.search', refusedFields: ['companyId'] } },
        ]);
        expect(JSON.stringify(operations.rows)).not.toContain('globex');
      } finally {
        await direct.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await direct.end();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
