import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifierSchema } from '@memplane/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reachTestPostgres } from '../../service/src/test-support/postgres/reach-test-postgres';
import { openMemplaneHost } from './open-memplane-host';
import { openHashedTokenFile } from './tokens/hashed-token-file';

// The Postgres server of @memplane/service's tests: started when stopped, or MEMPLANE_TEST_POSTGRES_URL.
const server = reachTestPostgres();

describe.skipIf(server.url === undefined)(`a host on Postgres${server.reason === undefined ? '' : ` (skipped: ${server.reason})`}`, () => {
  it('keeps tokens in the database: hosts with their own data folders share them, a revocation is refused by all at the next call', async () => {
    const url = server.url!;
    const schema = `host_test_${randomBytes(4).toString('hex')}`;
    const folders = [await mkdtemp(join(tmpdir(), 'memplane-host-pg-a-')), await mkdtemp(join(tmpdir(), 'memplane-host-pg-b-'))];
    try {
      // An old token file in the first folder is imported into the database, for every host.
      const old = openHashedTokenFile(join(folders[0]!, 'server-tokens.json'), {
        grant: z.strictObject({ role: z.enum(['operator', 'admin', 'agent']), operatorId: identifierSchema.optional(), companyId: identifierSchema.optional() }),
        tokenPrefix: 'mps_',
      });
      const imported = await old.issue({ role: 'operator', operatorId: 'ops' });
      const one = await openMemplaneHost({ dataDirectory: folders[0]!, databaseUrl: url, databaseSchema: schema });
      const two = await openMemplaneHost({ dataDirectory: folders[1]!, databaseUrl: url, databaseSchema: schema });
      try {
        expect(one.tokenImports).toMatchObject([{ imported: 1 }]);
        expect(await two.tokens.verify(imported.token)).toMatchObject({ role: 'operator', operatorId: 'ops', id: imported.record.id });
        const { token, record } = await one.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner', projectId: 'apollo' }, { label: 'ci' });
        expect(await two.tokens.verify(token)).toEqual(record);
        expect(await two.tokens.revoke(record.id)).toBe(true);
        expect(await one.tokens.verify(token)).toBeUndefined();
        await one.ensureDefaultBinding('acme');
        expect(await two.service.control({ actor: { kind: 'system', component: 'test' }, companyId: 'acme' }).listBindings()).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
      } finally {
        await one.close();
        await two.close();
      }
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      try {
        // Only hashes reach the database.
        const rows = JSON.stringify((await direct.query(`SELECT * FROM "${schema}".memory_tokens`)).rows);
        expect(rows).not.toContain(imported.token.slice(4));
      } finally {
        await direct.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await direct.end();
      }
    } finally {
      for (const folder of folders) await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
