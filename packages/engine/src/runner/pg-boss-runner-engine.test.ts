import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { createPgBossRunner, type PgBossRunner } from './pg-boss-runner';
import { createSyncRunner } from './sync-runner';

describeWithPostgres('the engine on the queued runner', (url) => {
  const schemas: string[] = [];
  const runners: PgBossRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  afterAll(() => dropSchemas(url, schemas));

  it('memorizes, retrieves and evolves through pg-boss with the same results as the synchronous runner', async () => {
    const scope = z.object({ companyId: z.string(), agentId: z.string() });
    const conversation = {
      type: 'conversation' as const,
      messages: [
        { role: 'user', content: 'I moved to Lisbon in May. I prefer tea over coffee.' },
        { role: 'assistant', content: 'Noted. Deploys happen on Tuesdays.' },
      ],
    };
    const outcomes = [];
    for (const queued of [true, false]) {
      const schema = uniqueSchemaName(queued ? 'queued' : 'sync');
      schemas.push(schema, `${schema}_runner`);
      const runner = queued ? createPgBossRunner({ connectionString: url, schema: `${schema}_runner`, pollingIntervalSeconds: 0.5 }) : createSyncRunner();
      if (queued) {
        runners.push(runner as PgBossRunner);
        await (runner as PgBossRunner).start();
      }
      const store = createPostgresEngineStore({ connectionString: url, schema, maxConnections: 3 });
      const engine = await createMemoryEngine({ scope, store, runner });
      const memorized = await engine.memorize({ companyId: 'acme', agentId: 'planner' }, conversation);
      const again = await engine.memorize({ companyId: 'acme', agentId: 'planner' }, conversation);
      const retrieved = await engine.retrieve({ companyId: 'acme', agentId: 'planner' }, 'which drink does the user prefer?', { topK: 3 });
      const evolved = await engine.evolve({ companyId: 'acme', agentId: 'planner' });
      const runs = await store.listRuns({ limit: 10 });
      outcomes.push({
        items: memorized.itemIds.length,
        duplicate: again.duplicate,
        texts: retrieved.items.map((item) => item.item.text),
        merged: evolved.merged.length,
        runs: runs.map((run) => [run.flow, run.status, run.steps.map((step) => step.status).every((status) => status !== 'failed')]),
      });
      await store.close();
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]!.items).toBeGreaterThan(0);
    expect(outcomes[0]!.duplicate).toBe(true);
  });
});
