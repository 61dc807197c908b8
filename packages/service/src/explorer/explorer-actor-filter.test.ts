import { afterEach, beforeEach, describe, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { createTestService } from '../test-support/service-test-support';
import { checkActorFilter } from '../testing/actor-filter-scenario';

describe('explorer: the operations an actor called (SQLite store)', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  beforeEach(async () => ({ service, cleanUp } = await createTestService()));
  afterEach(async () => cleanUp());

  it("finds an agent's company-wide search and its refused cross-company attempts by actor, which its scope never names", async () => {
    await checkActorFilter(service);
  });
});
