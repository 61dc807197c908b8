import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools, type MemoryToolDefinition } from './memory-tools';

describe('memory.profile and memory.jobs', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  const planner = { ...as(actors.planner, { heartbeatRunId: 'run-4' }), issueId: 'ACME-1' };
  const byName = (list: MemoryToolDefinition[]) => new Map(list.map((tool) => [tool.name, tool]));

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'memory');
  });
  afterEach(async () => cleanUp());

  it('are offered only where the binding capabilities have them, with strict input schemas', async () => {
    expect(createMemoryTools(service).map((tool) => tool.name)).not.toEqual(expect.arrayContaining(['memory.profile']));
    expect(createMemoryTools(service, { capabilities: { profile: false } }).map((tool) => tool.name)).toHaveLength(6);
    expect(createMemoryTools(service, { capabilities: { listExtractionJobs: true } }).map((tool) => tool.functionName).slice(6)).toEqual(['memory_jobs']);
    const { binding } = await service.control(as(actors.acmeAdmin)).resolve('planner');
    const tools = byName(createMemoryTools(service, { capabilities: binding.capabilities }));
    expect([...tools.values()].map((tool) => tool.functionName).slice(6)).toEqual(['memory_profile', 'memory_jobs']);
    expect(tools.get('memory.profile')!.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(tools.get('memory.jobs')!.inputSchema).toMatchObject({ type: 'object', properties: { cursor: { type: 'string' } }, additionalProperties: false });
    expect(() => createMemoryTools(service, { capabilities: 'all' } as never)).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('options.capabilities') }));
  });

  it('read the profile and the jobs of the caller scope through the runtime, logged as the agent', async () => {
    const tools = byName(createMemoryTools(service, { capabilities: { profile: true, listExtractionJobs: true } }));
    await service.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'Ada prefers short status updates.' }] });
    await service.runtime(as(actors.scout)).upsertRecords({ records: [{ text: 'Globex prefers long memos.' }] });

    const profile = await tools.get('memory.profile')!.execute({}, planner);
    expect(profile).toMatchObject({ isError: false, content: expect.stringContaining('Ada prefers short status updates.'), data: { items: [{ text: 'Ada prefers short status updates.' }] } });
    expect(JSON.stringify(profile)).not.toContain('Globex');
    const jobs = await tools.get('memory.jobs')!.execute({}, planner);
    expect(jobs).toMatchObject({ isError: false, content: 'No extraction jobs.', data: { jobs: [] } });

    await service.flush();
    const log = await service.explorer(as(actors.acmeAdmin)).listOperations({ runId: 'run-4' });
    expect(log.items.map((entry) => [entry.operation, entry.status, entry.actor]).reverse()).toEqual([
      ['profile', 'succeeded', { kind: 'agent', id: 'planner' }],
      ['extraction_job_list', 'succeeded', { kind: 'agent', id: 'planner' }],
    ]);
  });

  it('go through the policy like the other tools', async () => {
    const { service: guarded, cleanUp: close } = await createTestService({
      authorize: (_actor, operation) => (operation === 'profile' ? { allowed: false, reason: 'profiles are off' } : { allowed: true }),
    });
    try {
      await bindCompanyDefault(guarded, actors.acmeAdmin, 'default', 'memory');
      const profile = byName(createMemoryTools(guarded, { capabilities: { profile: true } })).get('memory.profile')!;
      const refused = await profile.execute({}, planner);
      expect(refused).toMatchObject({ isError: true, error: { code: 'MEMORY_SCOPE_VIOLATION' }, content: expect.stringContaining('profiles are off') });
      await guarded.flush();
      const log = await guarded.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'profile' });
      expect(log.items).toMatchObject([{ status: 'failed', errorCode: 'MEMORY_SCOPE_VIOLATION' }]);
    } finally {
      await close();
    }
  });
});
