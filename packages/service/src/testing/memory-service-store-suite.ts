import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryServiceStore } from '../store/memory-service-store';
import { describeStoreCostRules, describeStoreUsageRules } from './store-suite-accounting';
import { describeStoreBindingRules } from './store-suite-bindings';
import { describeStoreLogRules } from './store-suite-logs';
import { describeStoreRegistryRules } from './store-suite-registry';

/** Options of {@link describeMemoryServiceStoreSuite}. */
export interface MemoryServiceStoreSuiteOptions {
  /** Creates a fresh, empty store for each test. The suite migrates it and closes it. */
  createStore: () => MemoryServiceStore | Promise<MemoryServiceStore>;
}

/** Gives each test a fresh migrated store and closes it afterwards. */
export interface StoreUnderTest {
  readonly store: MemoryServiceStore;
}

/**
 * The contract every `MemoryServiceStore` passes, as a vitest suite: bindings and targets with
 * their activity entries, resolution, key uniqueness and optimistic revisions, company
 * isolation of every read, the operation log (round trip, filters, counts, keyset pages that
 * never skip or repeat), hook deliveries and extraction jobs; cost and finance events and their
 * summaries, metrics read from the operation log, binding usage under caps (concurrent
 * reservations included) and log retention.
 *
 * @example
 * ```ts
 * describeMemoryServiceStoreSuite('sqlite', { createStore: () => createSqliteMemoryServiceStore() });
 * ```
 */
export function describeMemoryServiceStoreSuite(name: string, options: MemoryServiceStoreSuiteOptions): void {
  describe(`MemoryServiceStore: ${name}`, () => {
    let current: MemoryServiceStore | undefined;
    const subject: StoreUnderTest = {
      get store() {
        if (current === undefined) throw new TypeError('The store is only available inside a test.');
        return current;
      },
    };

    beforeEach(async () => {
      current = await options.createStore();
      await current.migrate();
    });

    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    it('migrates idempotently', async () => {
      await subject.store.migrate();
      await subject.store.migrate();
      expect(await subject.store.listBindings('acme')).toEqual([]);
    });

    describeStoreBindingRules(subject);
    describeStoreLogRules(subject);
    describeStoreCostRules(subject);
    describeStoreUsageRules(subject);
    describeStoreRegistryRules(subject);

    it('refuses calls after close', async () => {
      const store = await options.createStore();
      await store.migrate();
      await store.close();
      await expect(store.listBindings('acme')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    });
  });
}
