import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createLeakyProvider, createTestService } from '../test-support/service-test-support';

describe('company isolation', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let leaky: ReturnType<typeof createLeakyProvider>;

  beforeEach(async () => {
    leaky = createLeakyProvider();
    ({ service, cleanUp } = await createTestService({ providers: [leaky.factory] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'leaky');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'leaky');
    await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: [{ text: 'Acme deploys on Tuesdays.' }] });
    await service.runtime(as(actors.globexAdmin)).upsertRecords({
      scope: { agentId: 'scout' },
      source: { kind: 'manual_note' },
      records: [{ text: 'Globex secret: the launch code is 0000.' }],
    });
  });

  afterEach(async () => cleanUp());

  describe('a provider that leaks another company record', () => {
    it('never returns it from query, list, get or profile', async () => {
      const planner = service.runtime(as(actors.planner));
      const globexHandle = { providerKey: 'leaky', providerRecordId: 'leak-2' };
      expect(leaky.records.map((record) => record.scope.companyId)).toEqual(['acme', 'globex']);

      const bundle = await planner.query({ query: 'launch code' });
      expect(bundle.snippets.map((snippet) => snippet.text)).toEqual(['Acme deploys on Tuesdays.']);
      expect(bundle.warnings).toContainEqual(expect.objectContaining({ type: 'scope_violation', providerRecordId: 'leak-2' }));

      const page = await planner.list();
      expect(page.items.map((item) => item.handle.providerRecordId)).toEqual(['leak-1']);
      expect((await planner.get({ handle: globexHandle })).snippet).toBeNull();
      const profile = await planner.profile();
      expect(profile.items?.map((item) => item.handle.providerRecordId)).toEqual(['leak-1']);
      expect(JSON.stringify([bundle, page, profile])).not.toContain('launch code is');
    });

    it('logs every drop on its operation and counts it', async () => {
      const planner = service.runtime(as(actors.planner));
      const { operationId } = await planner.query({ query: 'launch code' });
      await planner.get({ handle: { providerKey: 'leaky', providerRecordId: 'leak-2' } });
      const explorer = service.explorer(as(actors.acmeAdmin));
      expect(await explorer.getOperation(operationId)).toMatchObject({
        status: 'succeeded',
        droppedOutOfScope: 1,
        recordIds: ['leak-1'],
        warnings: [expect.objectContaining({ type: 'scope_violation', providerRecordId: 'leak-2' })],
      });
      expect(service.metrics().droppedOutOfScope).toBe(2);
      const [counts] = await explorer.countOperations();
      expect(counts).toMatchObject({ bindingKey: 'default', droppedOutOfScope: 2 });
    });
  });

  describe('an agent', () => {
    const foreignScopes = [
      { name: 'scope.companyId', request: { scope: { companyId: 'globex' } } },
      { name: 'scope.companyId with its agent', request: { scope: { companyId: 'globex', agentId: 'scout' } } },
    ];

    it.each(foreignScopes)('cannot query another company through $name', async ({ request }) => {
      const planner = service.runtime(as(actors.planner));
      await expect(planner.query({ query: 'launch code', ...request })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
      await expect(planner.list(request)).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    });

    it('cannot reach another company through the call context, a source or a binding key', async () => {
      const denied = { code: 'MEMORY_SCOPE_VIOLATION' };
      await expect(service.runtime(as(actors.planner, { companyId: 'globex' })).query({ query: 'launch code' })).rejects.toMatchObject(denied);
      await expect(
        service.runtime(as(actors.planner)).upsertRecords({ source: { kind: 'manual_note', companyId: 'globex' }, records: [{ text: 'x' }] }),
      ).rejects.toMatchObject(denied);
      // A binding key is looked up in the caller's own company only.
      const sameKey = await service.runtime(as(actors.planner)).query({ query: 'launch code', bindingKey: 'default' });
      expect(sameKey.snippets.map((snippet) => snippet.text)).toEqual(['Acme deploys on Tuesdays.']);
      expect(leaky.records).toHaveLength(2);
    });

    it('is logged under its own company when refused, and the other company sees nothing', async () => {
      await expect(service.runtime(as(actors.planner)).query({ query: 'x', scope: { companyId: 'globex' } })).rejects.toThrow(
        'may only reach its own company',
      );
      const acmeLog = await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' });
      expect(acmeLog.items).toEqual([
        expect.objectContaining({ companyId: 'acme', operation: 'query', errorCode: 'MEMORY_SCOPE_VIOLATION', actor: { kind: 'agent', id: 'planner' } }),
      ]);
      expect((await service.explorer(as(actors.globexAdmin)).listOperations({ status: 'failed' })).items).toEqual([]);
      expect(service.metrics().deniedOperations).toBe(1);
    });

    it('cannot use the control plane, the explorer or emit hooks of its own company by default', async () => {
      await expect(service.control(as(actors.planner)).listBindings()).rejects.toBeInstanceOf(MemoryAccessDeniedError);
      await expect(service.explorer(as(actors.planner)).listOperations()).rejects.toBeInstanceOf(MemoryAccessDeniedError);
      await expect(service.hooks.manualCapture(as(actors.planner), { text: 'x' })).rejects.toBeInstanceOf(MemoryAccessDeniedError);
    });
  });

  describe('operators and the system', () => {
    it('reach only the companies they are granted, and must name one', async () => {
      await expect(service.runtime(as(actors.acmeOperator)).query({ query: 'deploy' })).rejects.toMatchObject({ field: 'context.companyId' });
      const acme = await service.runtime(as(actors.acmeOperator, { companyId: 'acme' })).query({ query: 'deploy' });
      expect(acme.snippets).toHaveLength(1);
      await expect(service.runtime(as(actors.acmeOperator, { companyId: 'globex' })).query({ query: 'deploy' })).rejects.toThrow(
        'not granted this company',
      );
      const globex = await service.runtime(as(actors.heartbeat, { companyId: 'globex' })).query({ query: 'launch' });
      expect(globex.snippets.map((snippet) => snippet.text)).toEqual(['Globex secret: the launch code is 0000.']);
    });

    it('follow a custom policy, which sees the company of every call', async () => {
      const seen: string[] = [];
      const { service: strict, cleanUp: close } = await createTestService({
        providers: [leaky.factory],
        authorize: (actor, operation, scope) => {
          seen.push(`${actor.kind}:${operation}:${scope.companyId}`);
          return operation === 'forget' ? { allowed: false, reason: 'forgetting is for humans' } : true;
        },
      });
      await bindCompanyDefault(strict, actors.acmeAdmin, 'default', 'leaky');
      await expect(strict.runtime(as(actors.planner)).forget({ handles: [{ providerKey: 'leaky', providerRecordId: 'leak-1' }] })).rejects.toThrow(
        'forgetting is for humans',
      );
      expect(seen).toEqual(['company:bindings.write:acme', 'company:bindings.write:acme', 'agent:forget:acme']);
      await close();
    });
  });
});
