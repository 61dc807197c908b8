export { createMemoryAdapter, memoryAdapterCapabilities } from './memory-adapter';
export { memoryAdapterSettingsSchema, type MemoryAdapterSettings } from './memory-settings';
export {
  createMemoryStore,
  type MemoryRecordVersion,
  type MemoryStore,
  type MemoryStoreForgottenRecord,
  type MemoryStoreLiveRecord,
  type MemoryStoreRecord,
} from './memory-store';
export { createMemoryAdapterFaults, type MemoryAdapterFaults } from './memory-faults';
