export { createSupermemoryAdapter } from './supermemory-adapter';
export { supermemoryCapabilities } from './supermemory-capabilities';
export { containerTagPattern, toSupermemoryContainerTag } from './supermemory-container-tag';
export { supermemoryProviderKey } from './supermemory-handle';
export { metadataKeys as supermemoryMetadataKeys } from './supermemory-record-metadata';
export { supermemoryScopeKeys } from './supermemory-scope-mapping';
export { defaultSupermemoryBaseURL, supermemoryAdapterSettingsSchema, type SupermemoryAdapterSettings } from './supermemory-settings';
