import { describe, expect, it } from 'vitest';
import type { MemoryRegisteredRecord } from '../store/memory-record-registry-store';
import type { StoreUnderTest } from './memory-service-store-suite';
import { createStoreFixtures } from './store-fixtures';

const registered = (overrides: Partial<MemoryRegisteredRecord> = {}): MemoryRegisteredRecord => ({
  companyId: 'acme',
  bindingId: 'bnd_acme',
  providerId: 'mem0',
  providerRecordId: 'rec-1',
  scope: { companyId: 'acme', agentId: 'planner' },
  registeredAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** The registry of record handles written through the service. */
export function describeStoreRegistryRules(subject: StoreUnderTest): void {
  describe('record registry', () => {
    it('places ids as own (with their scope) or foreign, within one provider, and tells nothing else about foreign ones', async () => {
      await subject.store.registerRecords([
        registered(),
        registered({ providerRecordId: 'rec-2', scope: { companyId: 'acme' } }),
        registered({ companyId: 'globex', bindingId: 'bnd_globex', providerRecordId: 'rec-9', scope: { companyId: 'globex', agentId: 'spy' } }),
        registered({ companyId: 'globex', bindingId: 'bnd_globex_md', providerId: 'markdown', providerRecordId: 'rec-1', scope: { companyId: 'globex' } }),
      ]);
      const placement = await subject.store.placeRecords('acme', 'mem0', ['rec-1', 'rec-2', 'rec-9', 'rec-unknown', 'rec-1']);
      expect(placement.foreignIds).toEqual(['rec-9']);
      expect(placement.own.map((entry) => entry.providerRecordId).sort()).toEqual(['rec-1', 'rec-2']);
      expect(placement.own.find((entry) => entry.providerRecordId === 'rec-1')).toEqual(registered());
      // Another provider's id space is separate.
      expect(await subject.store.placeRecords('acme', 'markdown', ['rec-1'])).toEqual({ own: [], foreignIds: ['rec-1'] });
      expect(await subject.store.placeRecords('acme', 'mem0', [])).toEqual({ own: [], foreignIds: [] });
    });

    it('keeps the first registration of a handle, and unregisters only the binding and company named', async () => {
      await subject.store.registerRecords([registered()]);
      await subject.store.registerRecords([registered({ scope: { companyId: 'acme', agentId: 'other' } })]);
      expect((await subject.store.placeRecords('acme', 'mem0', ['rec-1'])).own[0]?.scope).toEqual({ companyId: 'acme', agentId: 'planner' });
      await subject.store.unregisterRecords('globex', 'bnd_acme', ['rec-1']);
      expect((await subject.store.placeRecords('acme', 'mem0', ['rec-1'])).own).toHaveLength(1);
      await subject.store.unregisterRecords('acme', 'bnd_acme', ['rec-1']);
      expect(await subject.store.placeRecords('acme', 'mem0', ['rec-1'])).toEqual({ own: [], foreignIds: [] });
    });

    it('keeps the registrations of a deleted binding: its records live on at the provider', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ companyId: 'globex', key: 'default' });
      await subject.store.insertBinding(binding, []);
      await subject.store.registerRecords([registered({ companyId: 'globex', bindingId: binding.id, providerRecordId: 'rec-9', scope: { companyId: 'globex' } })]);
      expect(await subject.store.deleteBinding('globex', binding.id, [])).toBe(true);
      expect(await subject.store.placeRecords('acme', 'mem0', ['rec-9'])).toEqual({ own: [], foreignIds: ['rec-9'] });
    });

    it('places a large page in one call', async () => {
      const ids = Array.from({ length: 150 }, (_, index) => `rec-${index}`);
      await subject.store.registerRecords(ids.map((providerRecordId) => registered({ providerRecordId })));
      expect((await subject.store.placeRecords('acme', 'mem0', ids)).own).toHaveLength(150);
    });
  });

  describe('delivery keys', () => {
    it('tells a new key, one an earlier attempt started, and one written, per company', async () => {
      const at = '2026-01-01T00:00:00.000Z';
      expect(await subject.store.claimDelivery('acme', 'hook_1:bnd_1', at)).toEqual({ state: 'new' });
      expect(await subject.store.claimDelivery('acme', 'hook_1:bnd_1', at)).toEqual({ state: 'started' });
      expect(await subject.store.claimDelivery('globex', 'hook_1:bnd_1', at)).toEqual({ state: 'new' });
      await subject.store.completeDelivery('acme', 'hook_1:bnd_1', { operationId: 'op_1', recordIds: ['r-1'] }, at);
      expect(await subject.store.claimDelivery('acme', 'hook_1:bnd_1', at)).toEqual({ state: 'written', operationId: 'op_1', recordIds: ['r-1'] });
      expect(await subject.store.claimDelivery('globex', 'hook_1:bnd_1', at)).toEqual({ state: 'started' });
    });

    it('prunes the keys of one company last touched before the cut, and counts them', async () => {
      const fixtures = createStoreFixtures();
      await subject.store.claimDelivery('acme', 'old', fixtures.time(1));
      await subject.store.claimDelivery('acme', 'written', fixtures.time(2));
      await subject.store.completeDelivery('acme', 'written', { operationId: 'op_1', recordIds: [] }, fixtures.time(2));
      // Touched again after the cut: a job still retrying keeps its key.
      await subject.store.claimDelivery('acme', 'retried', fixtures.time(1));
      await subject.store.claimDelivery('acme', 'retried', fixtures.time(10));
      await subject.store.claimDelivery('globex', 'old', fixtures.time(1));
      expect(await subject.store.pruneDeliveryKeys('acme', fixtures.time(5))).toBe(2);
      expect(await subject.store.pruneDeliveryKeys('acme', fixtures.time(5))).toBe(0);
      expect(await subject.store.claimDelivery('acme', 'old', fixtures.time(11))).toEqual({ state: 'new' });
      expect(await subject.store.claimDelivery('acme', 'written', fixtures.time(11))).toEqual({ state: 'new' });
      expect(await subject.store.claimDelivery('acme', 'retried', fixtures.time(11))).toEqual({ state: 'started' });
      expect(await subject.store.claimDelivery('globex', 'old', fixtures.time(11))).toEqual({ state: 'started' });
    });
  });
}
