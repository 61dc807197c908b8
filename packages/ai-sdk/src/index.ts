export { memplaneAgentSchema, parseAgent, type MemplaneAgent } from './memplane-agent';
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
