import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryServiceStore } from '../store/memory-service-store';
import { describeStoreCostRules, describeStoreUsageRules } from './store-suite-accounting';
import { describeStoreBindingRules } from './store-suite-bindings';
import { describeStoreLogRules } from './store-suite-logs';
import { describeStoreRegistryRules } from './store-suite-registry';
import { describeStoreTokenRules } from './store-suite-tokens';

/** Options of {@link describeMemoryServiceStoreSuite}. */
export interface MemoryServiceStoreSuiteOptions {
  /** Creates a fresh, empty store for each test. The suite migrates it and closes it. */
  createStore: () => MemoryServiceStore | Promise<MemoryServiceStore>;
  /**
   * Opens another instance of the store on the database of the store `createStore` made last
   * (another connection, as a second process opens it); the suite migrates it and closes it.
   * The rules that need two instances (a token revoked through one is refused by the other at
   * once) run only when it is given, and are reported skipped otherwise.
   */
  openSecondInstance?: () => MemoryServiceStore | Promise<MemoryServiceStore>;
}

/** Gives each test a fresh migrated store and closes it afterwards. */
export interface StoreUnderTest {
  readonly store: MemoryServiceStore;
  /** A second instance on the same database, when the store has one. */
  readonly openSecondInstance?: () => MemoryServiceStore | Promise<MemoryServiceStore>;
}

/**
 * The contract every `MemoryServiceStore` passes, as a vitest suite: bindings and targets with
 * their activity entries, resolution, key uniqueness and optimistic revisions, company
 * isolation of every read, the operation log (round trip, filters, counts, keyset pages that
 * never skip or repeat), hook deliveries and extraction jobs; cost and finance events and their
 * summaries, metrics read from the operation log, binding usage under caps (concurrent
 * reservations included), log retention, and the token table (unique ids and hashes, oldest
 * first, one revocation, seen at once by a second instance on the same database).
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
      ...(options.openSecondInstance === undefined ? {} : { openSecondInstance: options.openSecondInstance }),
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
    describeStoreTokenRules(subject);

    it('refuses calls after close', async () => {
      const store = await options.createStore();
      await store.migrate();
      await store.close();
      await expect(store.listBindings('acme')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    });
  });
}
