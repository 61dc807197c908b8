export { createAgentCoreAdapter } from './agentcore-adapter';
export { agentCoreCapabilities } from './agentcore-capabilities';
export { agentCoreProviderKey } from './agentcore-handle';
export { decodeIdentifier, encodeIdentifier, maximumEncodedIdentifierLength } from './agentcore-identifier-encoding';
export {
  agentCoreIndexedKeys,
  agentCoreMaximumMetadataFilters,
  agentCoreScopeMetadataKeys,
  agentCoreSessionRunMetadataKey,
  encodeScope,
  toActorId,
  toNamespace,
  toSessionId,
  type EncodedScope,
} from './agentcore-scope-mapping';
export { agentCoreAdapterSettingsSchema, memoryIdPattern, type AgentCoreAdapterSettings } from './agentcore-settings';
