export { defaultClient, memplaneAgentSchema, memplaneClientSchema, parseAgent, type MemplaneAgent, type MemplaneClient } from './memplane-agent';
export { VERSION } from './version';
export {
  memplaneTools,
  type MemplaneTool,
  type MemplaneToolName,
  type MemplaneToolOutput,
  type MemplaneToolSet,
  type MemplaneToolsOptions,
} from './tools/memplane-tools';
export { memplaneMiddleware, type MemplaneMiddleware } from './middleware/memplane-middleware';
export type {
  MemplaneCaptureOptions,
  MemplaneHookHost,
  MemplaneHydrateOptions,
  MemplaneMiddlewareOptions,
} from './middleware/middleware-options';
export type { MemplaneEventListener, MemplaneMiddlewareEvent } from './middleware/middleware-events';
export { hydrationBlockClose, hydrationBlockOpen } from './middleware/prompt-parts';
