export { describeMemoryServiceStoreSuite, type MemoryServiceStoreSuiteOptions } from './testing/memory-service-store-suite';
export { createStoreFixtures, type StoreFixtures } from './testing/store-fixtures';
