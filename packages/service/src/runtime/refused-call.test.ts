import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

const refusal = { operation: 'query', via: 'memory_search', code: 'MEMORY_SCOPE_VIOLATION', fields: ['companyId'] } as const;

describe('logRefusedCall', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'memory');
  });
  afterEach(async () => cleanUp());

  const failedIn = async (admin: (typeof actors)['acmeAdmin' | 'globexAdmin']) => {
    await service.flush();
    return (await service.explorer(as(admin)).listOperations({ status: 'failed', limit: 50 })).items;
  };

  it('logs the refusal as a failed operation of the caller, with the field names only', async () => {
    const { operationId } = await service.runtime(as(actors.planner, { heartbeatRunId: 'run-1' })).logRefusedCall({ ...refusal });
    const [entry] = await failedIn(actors.acmeAdmin);
    expect(entry).toMatchObject({ id: operationId, operation: 'query', status: 'failed', heartbeatRunId: 'run-1', details: { refusedBy: 'memory_search', refusedFields: ['companyId'] } });
    expect(entry?.errorCode).toBe('MEMORY_SCOPE_VIOLATION');
  });

  it('refuses a caller that names a company it may not reach, instead of reporting success', async () => {
    // An agent of globex, and an operator granted only acme, each asking to log in a company not theirs.
    const attempts = [as(actors.scout, { companyId: 'acme' }), as(actors.acmeOperator, { companyId: 'globex' })];
    for (const context of attempts) {
      await expect(service.runtime(context).logRefusedCall({ ...refusal })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    }
    // Nothing was logged as a tool refusal anywhere; the scout's own attempt on acme is logged in globex as an access refusal.
    const logged = [...(await failedIn(actors.acmeAdmin)), ...(await failedIn(actors.globexAdmin))];
    expect(logged.filter((entry) => entry.details?.refusedBy !== undefined)).toEqual([]);
    expect(logged.filter((entry) => entry.companyId === 'acme')).toEqual([]);
  });
});
