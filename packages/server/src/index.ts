export { createMemplaneServer, serverRoutes, type MemplaneServer, type MemplaneServerSettings } from './create-memplane-server';
export { startMemplaneServer, type RunningMemplaneServer, type StartMemplaneServerSettings } from './start-memplane-server';
export { serveMemplane, serverTokenFileOf, type ServeMemplaneOptions, type ServedMemplane } from './open-memplane-server';
export {
  openServerTokenFile,
  serverTokenFileName,
  serverTokenGrantSchema,
  serverTokenPrefix,
  type ServerTokenFile,
  type ServerTokenGrant,
  type ServerTokenRecord,
} from './server-token-file';
export { actorOf } from './server-actor';
export { problemOf, serverProblemSchema, type ServerProblem, type ServerProblemCode } from './server-problem';
export { createTokenRateLimiter, type RateDecision, type ServerRateLimitSettings, type TokenRateLimiter } from './server-rate-limit';
export type { ServerCall, ServerReply, ServerRoute, ServerRouteTag } from './server-route';
export type { OpenApiDocument } from './server-openapi';
export { defaultInspectorDirectory } from './server-static';
export { VERSION } from './version';
export { createServeCommand, serveCommand, type ServeCommand, type ServeCommandHooks, type ServeCommandOutput } from './serve-command';
