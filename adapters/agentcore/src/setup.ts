export {
  agentCoreMaximumIndexedKeys,
  setupAgentCoreMemory,
  type AgentCoreMemorySetupResult,
  type AgentCoreMemorySetupSettings,
} from './agentcore-memory-setup';
export { agentCoreIndexedKeys } from './agentcore-scope-mapping';
