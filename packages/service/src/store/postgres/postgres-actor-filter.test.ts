import { createMemoryService } from '../../service/create-memory-service';
import { afterAll, it } from 'vitest';
import { checkActorFilter } from '../../testing/actor-filter-scenario';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../../test-support/postgres/postgres-test-database';
import { testProviders } from '../../test-support/service-test-support';
import { createPostgresMemoryServiceStore } from './postgres-memory-service-store';

describeWithPostgres('explorer: the operations an actor called (Postgres store)', (url) => {
  const schema = uniqueSchemaName('actor_filter');
  afterAll(() => dropSchemas(url, [schema]));

  it("finds an agent's company-wide search and its refused cross-company attempts by actor, which its scope never names", async () => {
    const service = await createMemoryService({ store: createPostgresMemoryServiceStore({ connectionString: url, schema, maxConnections: 2 }), providers: testProviders });
    try {
      await checkActorFilter(service);
    } finally {
      await service.close();
    }
  });
});
