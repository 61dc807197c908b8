export { VERSION } from './version';
export { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin, type MemplanePaperclipPluginOptions } from './worker/memplane-paperclip-plugin';
export {
  paperclipPluginConfigSchema,
  parsePluginConfig,
  type CompanyMemoryConfig,
  type PaperclipPluginConfig,
} from './worker/paperclip-plugin-config';
export { paperclipMemoryToolDefinitions, paperclipMemoryToolNames } from './worker/paperclip-memory-tools';
export { memoryCostMetric } from './worker/paperclip-cost-mirror';
export { defaultPluginDataDirectory, pluginSqliteFileName } from './worker/paperclip-service-host';
export type { PluginMemoryService, PluginServiceHealth, PluginServiceMode } from './worker/plugin-memory-service';
export { serverUrlRefusal } from './worker/plugin-service-location';
export { paperclipSecretRefSchema, type PaperclipSecretRef } from './worker/paperclip-secret-refs';
export { mcpBridgeConfigSchema, type McpBridgeConfig, type McpBridgeTarget } from './mcp-bridge/mcp-bridge-config';
export { mcpBridgeClients, mcpBridgeFolderKeys, type McpBridgeClient, type McpBridgeClientId } from './mcp-bridge/mcp-bridge-clients';
export { registerMcpBridge, type McpBridgeHost } from './mcp-bridge/mcp-bridge-handlers';
export { resolveBridgeLaunch, type McpBridgeLaunch } from './mcp-bridge/mcp-bridge-launch';
