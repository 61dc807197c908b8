import { MemoryConflictError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { StoreUnderTest } from './memory-service-store-suite';
import { createStoreFixtures } from './store-fixtures';

/** Bindings, targets, resolution and the activity log. */
export function describeStoreBindingRules(subject: StoreUnderTest): void {
  describe('bindings and targets', () => {
    it('round-trips a binding exactly, by key and by id, inside its company only', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ key: 'default' });
      await subject.store.insertBinding(binding, [fixtures.activity('acme')]);
      expect(await subject.store.getBindingByKey('acme', 'default')).toEqual(binding);
      expect(await subject.store.getBindingById('acme', binding.id)).toEqual(binding);
      expect(await subject.store.getBindingByKey('globex', 'default')).toBeUndefined();
      expect(await subject.store.getBindingById('globex', binding.id)).toBeUndefined();
      expect(await subject.store.listBindings('globex')).toEqual([]);
    });

    it('round-trips a binding quota, and forgets what was counted for a deleted binding', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ key: 'capped', quota: { maxRecords: 10, maxBytes: 2048 } });
      await subject.store.insertBinding(binding, []);
      expect(await subject.store.getBindingById('acme', binding.id)).toEqual(binding);
      const uncapped = { ...binding, quota: { maxBytes: 4096 }, revision: 2 };
      await subject.store.updateBinding(uncapped, 1, []);
      expect((await subject.store.getBindingByKey('acme', 'capped'))?.quota).toEqual({ maxBytes: 4096 });
      await subject.store.reserveBindingUsage('acme', binding.id, { records: 2, bytes: 100 }, {});
      await subject.store.settleBindingUsage('acme', binding.id, { records: 2, bytes: 100 }, [{ providerRecordId: 'r1', bytes: 100 }]);
      expect(await subject.store.deleteBinding('acme', binding.id, [])).toBe(true);
      expect(await subject.store.getBindingUsage('acme', binding.id)).toEqual({ records: 0, bytes: 0 });
    });

    it('lists bindings by key', async () => {
      const fixtures = createStoreFixtures();
      for (const key of ['zeta', 'alpha', 'mid']) await subject.store.insertBinding(fixtures.binding({ key }), []);
      expect((await subject.store.listBindings('acme')).map((binding) => binding.key)).toEqual(['alpha', 'mid', 'zeta']);
    });

    it('refuses a key used in the company, naming the field, and writes nothing', async () => {
      const fixtures = createStoreFixtures();
      await subject.store.insertBinding(fixtures.binding({ key: 'default' }), []);
      const duplicate = subject.store.insertBinding(fixtures.binding({ key: 'default' }), [fixtures.activity('acme')]);
      await expect(duplicate).rejects.toBeInstanceOf(MemoryValidationError);
      await expect(duplicate).rejects.toMatchObject({ field: 'key' });
      expect((await subject.store.listActivity('acme', { limit: 10 })).items).toEqual([]);
      await subject.store.insertBinding(fixtures.binding({ key: 'default', companyId: 'globex' }), []);
      expect(await subject.store.listBindings('globex')).toHaveLength(1);
    });

    it('updates only at the expected revision, and keeps keys unique', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ key: 'default' });
      await subject.store.insertBinding(binding, []);
      await subject.store.insertBinding(fixtures.binding({ key: 'other' }), []);
      const next = { ...binding, enabled: false, revision: 2, updatedAt: fixtures.time(5) };
      await subject.store.updateBinding(next, 1, [fixtures.activity('acme', { action: 'binding.updated' })]);
      expect(await subject.store.getBindingById('acme', binding.id)).toEqual(next);
      await expect(subject.store.updateBinding({ ...next, revision: 3 }, 1, [])).rejects.toBeInstanceOf(MemoryConflictError);
      await expect(subject.store.updateBinding({ ...next, key: 'other', revision: 3 }, 2, [])).rejects.toMatchObject({ field: 'key' });
      await expect(subject.store.updateBinding({ ...next, companyId: 'globex', revision: 3 }, 2, [])).rejects.toBeInstanceOf(MemoryConflictError);
      expect((await subject.store.listActivity('acme', { limit: 10 })).items.map((entry) => entry.action)).toEqual(['binding.updated']);
    });

    it('sets, replaces and removes targets, refusing a binding of another company', async () => {
      const fixtures = createStoreFixtures();
      const first = fixtures.binding({ key: 'first' });
      const second = fixtures.binding({ key: 'second' });
      const foreign = fixtures.binding({ key: 'foreign', companyId: 'globex' });
      for (const binding of [first, second, foreign]) await subject.store.insertBinding(binding, []);
      await subject.store.putTarget(fixtures.target(first), [fixtures.activity('acme', { action: 'target.set' })]);
      await subject.store.putTarget(fixtures.target(second, { updatedAt: fixtures.time(3) }), []);
      expect(await subject.store.getTarget('acme', 'company', 'acme')).toMatchObject({ bindingId: second.id, updatedAt: fixtures.time(3) });
      await expect(subject.store.putTarget(fixtures.target(foreign, { companyId: 'acme' }), [])).rejects.toMatchObject({ field: 'bindingId' });
      await subject.store.putTarget(fixtures.target(first, { targetType: 'agent', targetId: 'planner' }), []);
      expect((await subject.store.listTargets('acme')).map((target) => `${target.targetType}:${target.targetId}`)).toEqual([
        'agent:planner',
        'company:acme',
      ]);
      expect(await subject.store.deleteTarget('acme', 'agent', 'planner', [fixtures.activity('acme', { action: 'target.removed' })])).toBe(true);
      expect(await subject.store.deleteTarget('acme', 'agent', 'planner', [fixtures.activity('acme')])).toBe(false);
      expect((await subject.store.listActivity('acme', { limit: 10 })).items.map((entry) => entry.action)).toEqual(['target.removed', 'target.set']);
    });

    it('deletes a binding with its targets', async () => {
      const fixtures = createStoreFixtures();
      const binding = fixtures.binding({ key: 'default' });
      await subject.store.insertBinding(binding, []);
      await subject.store.putTarget(fixtures.target(binding), []);
      expect(await subject.store.deleteBinding('globex', binding.id, [])).toBe(false);
      expect(await subject.store.deleteBinding('acme', binding.id, [fixtures.activity('acme', { action: 'binding.deleted' })])).toBe(true);
      expect(await subject.store.listTargets('acme')).toEqual([]);
      expect(await subject.store.resolveBinding('acme', undefined)).toBeUndefined();
      expect(await subject.store.deleteBinding('acme', binding.id, [])).toBe(false);
    });
  });

  describe('resolution', () => {
    it('takes the agent override, then the company default, skipping disabled bindings and other companies', async () => {
      const fixtures = createStoreFixtures();
      const companyDefault = fixtures.binding({ key: 'default' });
      const override = fixtures.binding({ key: 'planner-own' });
      const globexDefault = fixtures.binding({ key: 'default', companyId: 'globex' });
      for (const binding of [companyDefault, override, globexDefault]) await subject.store.insertBinding(binding, []);
      expect(await subject.store.resolveBinding('acme', 'planner')).toBeUndefined();
      await subject.store.putTarget(fixtures.target(globexDefault), []);
      expect(await subject.store.resolveBinding('acme', undefined)).toBeUndefined();
      await subject.store.putTarget(fixtures.target(companyDefault), []);
      await subject.store.putTarget(fixtures.target(override, { targetType: 'agent', targetId: 'planner' }), []);
      expect(await subject.store.resolveBinding('acme', 'planner')).toEqual({ binding: override, resolvedBy: 'agent' });
      expect(await subject.store.resolveBinding('acme', 'builder')).toEqual({ binding: companyDefault, resolvedBy: 'company' });
      expect(await subject.store.resolveBinding('acme', undefined)).toEqual({ binding: companyDefault, resolvedBy: 'company' });
      await subject.store.updateBinding({ ...override, enabled: false, revision: 2 }, 1, []);
      expect((await subject.store.resolveBinding('acme', 'planner'))?.binding.id).toBe(companyDefault.id);
      await subject.store.updateBinding({ ...companyDefault, enabled: false, revision: 2 }, 1, []);
      expect(await subject.store.resolveBinding('acme', 'planner')).toBeUndefined();
      expect(await subject.store.resolveBinding('globex', 'planner')).toEqual({ binding: globexDefault, resolvedBy: 'company' });
    });
  });

  describe('activity log', () => {
    it('round-trips entries and pages newest first without gaps or repeats', async () => {
      const fixtures = createStoreFixtures();
      const entries = Array.from({ length: 7 }, (_, index) =>
        fixtures.activity('acme', { before: index === 0 ? null : { index: index - 1 }, after: { index } }),
      );
      for (const entry of entries) await subject.store.insertBinding(fixtures.binding(), [entry]);
      await subject.store.insertBinding(fixtures.binding({ companyId: 'globex' }), [fixtures.activity('globex')]);
      const seen = [];
      let after: number | undefined;
      do {
        const page = await subject.store.listActivity('acme', { limit: 3, ...(after === undefined ? {} : { after }) });
        seen.push(...page.items);
        after = page.nextAfter;
      } while (after !== undefined);
      expect(seen).toEqual([...entries].reverse());
    });

    it('appends entries without a binding change, in order, inside their company only', async () => {
      const fixtures = createStoreFixtures();
      const refused = fixtures.activity('acme', { action: 'binding.refused', after: { field: 'config.baseURL', rule: 'destination' } });
      const pruned = fixtures.activity('acme', { action: 'log.pruned', subjectType: 'operation_log', subjectId: 'memory_operations', after: { deleted: 3 } });
      await subject.store.appendActivity([refused, pruned]);
      await subject.store.appendActivity([]);
      expect((await subject.store.listActivity('acme', { limit: 10 })).items).toEqual([pruned, refused]);
      expect((await subject.store.listActivity('globex', { limit: 10 })).items).toEqual([]);
    });
  });
}
