import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../../engine/create-memory-engine';
import { crashConversation } from '../../test-support/crash-conversation';
import type { EngineStore } from '../engine-store';
import { createPostgresEngineStore } from './postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from './test-support/postgres-test-support';

describeWithPostgres('engines memorizing at once on one PostgreSQL', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('writes a conversation once when five engines (five pools, as five processes) memorize it at the same moment', async () => {
    const schema = uniqueSchemaName('memorize_race');
    schemas.push(schema);
    const scope = z.object({ companyId: z.string(), agentId: z.string() });
    const stores: EngineStore[] = Array.from({ length: 5 }, () => createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 }));
    const engines = await Promise.all(stores.map((store) => createMemoryEngine({ scope, store })));
    const where = { companyId: 'acme', agentId: 'planner' };
    const results = await Promise.allSettled(engines.map((engine) => engine.memorize(where, crashConversation)));
    const written = results.filter((result) => result.status === 'fulfilled' && !result.value.duplicate);
    const refused = results.filter((result) => result.status === 'rejected');
    // One engine writes it; the others see the written resource, or lose the race with a retryable conflict.
    expect(written).toHaveLength(1);
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'MEMORY_CONFLICT', isRetryable: true });
    const items = (written[0] as PromiseFulfilledResult<{ itemIds: readonly string[] }>).value.itemIds.length;
    expect(await stores[0]!.countItems({ companyId: ['acme'] }, { excludeMerged: false })).toBe(items);
    // A retry of a refused call now finds the resource.
    expect((await engines[4]!.memorize(where, crashConversation)).duplicate).toBe(true);
    await Promise.all(stores.map((store) => store.close()));
  });
});
