export { boundScopeFields, mcpBoundScopeSchema, resolveBoundScope, scopeFieldSources, type McpBoundScope } from './mcp-bound-scope';
export { createMemplaneMcpServer, profileResourceUri, toolContextOf, toolsFor, type McpServiceHost, type MemplaneMcpServerOptions } from './mcp-server';
export { createCapabilityTools, type McpCapabilityTool } from './mcp-extra-tools';
export { mcpOutputSchemas, type McpToolName } from './mcp-output-schemas';
export { VERSION } from './version';
