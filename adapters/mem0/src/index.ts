export { createMem0Adapter } from './mem0-adapter';
export { mem0Capabilities } from './mem0-capabilities';
export { mem0ProviderKey } from './mem0-handle';
export { mem0ScopeMetadataKeys } from './mem0-scope-mapping';
export { defaultMem0BaseURL, mem0AdapterSettingsSchema, type Mem0AdapterSettings } from './mem0-settings';
export { VERSION } from './mem0-version';
