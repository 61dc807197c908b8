import { MemoryError, MemoryValidationError } from '@memplane/core';
import { MemoryBindingNotFoundError, type MemoryBinding, type MemoryBindingTarget, type MemoryCallContext, type MemoryRuntime } from '@memplane/service';
import { z } from 'zod';
import type { PluginMemoryService } from '../worker/plugin-memory-service';
import { guardAgentRuntime } from './http-agent-guard';
import type { HttpCall, HttpTransport } from './memplane-http-transport';
import * as shapes from './memplane-http-shapes';

/** What the HTTP client does with a refused tool input it cannot log on the server. */
export interface HttpServiceLog {
  warn(message: string, meta?: Record<string, unknown>): void;
}

/** The company a call runs in: the context's, else the agent's or member's own. */
function companyOf(context: MemoryCallContext): string {
  const own = context.actor.kind === 'agent' || context.actor.kind === 'company' ? context.actor.companyId : undefined;
  const companyId = context.companyId ?? own;
  if (companyId === undefined) {
    throw new MemoryValidationError({ target: 'call context', issues: [{ path: 'context.companyId', message: 'is required to reach memplane serve' }] });
  }
  return companyId;
}

const segment = (value: string) => encodeURIComponent(value);
// Only a 404 means the binding is not there; any other failure (a misconfigured server) is not read as absence.
const isAbsent = (error: unknown) => MemoryError.hasCode(error, 'MEMORY_NOT_FOUND') || MemoryBindingNotFoundError.isInstance(error);

/**
 * The worker's {@link PluginMemoryService} over `memplane serve`: every call goes to the
 * server's `/v1/companies/{companyId}/...` routes with the worker's token, and the server's own
 * service authorises it, as the token's actor. The actor in a call context only picks the
 * company; the token decides who the caller is. A call in an agent's context (a tool) runs on
 * the server as that agent when the token may act as agents (`actAsAgents`); otherwise it is
 * narrowed to that agent on this side (see `guardAgentRuntime`).
 */
export function createHttpMemoryService(transport: HttpTransport, log: HttpServiceLog, options: { actAsAgents?: boolean } = {}): PluginMemoryService {
  const actAsAgents = options.actAsAgents === true;
  const inCompany = (context: MemoryCallContext) => {
    const companyId = companyOf(context);
    const base = `/v1/companies/${segment(companyId)}`;
    const acting = actAsAgents && context.actor.kind === 'agent' ? { actingAgentId: context.actor.agentId } : {};
    return <Schema extends z.ZodType>(call: Omit<HttpCall, 'path' | 'context' | 'companyId'> & { path: string }, schema: Schema) =>
      transport.call({ ...call, path: `${base}${call.path}`, context, companyId, ...acting }, schema);
  };

  function runtime(context: MemoryCallContext): MemoryRuntime {
    const send = inCompany(context);
    const post = <Schema extends z.ZodType>(route: string, operation: string, body: unknown, schema: Schema) =>
      send({ method: 'POST', path: `/memory/${route}`, operation: `memory.${operation}`, body }, schema);
    const plain: MemoryRuntime = {
      capture: (request) => post('capture', 'capture', request, shapes.receiptSchema) as never,
      upsertRecords: (request) => post('records', 'upsertRecords', request, shapes.receiptSchema) as never,
      query: (request) => post('query', 'query', request, shapes.querySchema) as never,
      list: (request = {}) => post('list', 'list', request, shapes.listSchema) as never,
      get: (request) => post('get', 'get', request, shapes.getSchema) as never,
      async forget(request) {
        const answer = await post('forget', 'forget', request, shapes.forgetSchema);
        return { ...answer, forgotten: shapes.forgottenOf(answer, request.handles) } as Awaited<ReturnType<MemoryRuntime['forget']>>;
      },
      correct: (request) => post('correct', 'correct', request, shapes.correctSchema) as never,
      profile: (request = {}) => post('profile', 'profile', request, shapes.receiptSchema) as never,
      listProviderExtractionJobs: (request = {}) => post('provider-jobs', 'listProviderExtractionJobs', request, shapes.receiptSchema) as never,
      retryExtractionJob: (request) => post(`jobs/${segment(request.jobId)}/retry`, 'retryExtractionJob', {}, shapes.receiptSchema) as never,
      refreshExtractionJobs: (request = {}) => post('jobs/refresh', 'refreshExtractionJobs', request, shapes.objectSchema) as never,
      listExtractionJobs: (request = {}) =>
        send({ method: 'GET', path: '/memory/jobs', operation: 'memory.listExtractionJobs', query: { ...request } }, shapes.pageSchema) as never,
      async logRefusedCall(request) {
        try {
          return await post('refused-calls', 'logRefusedCall', request, z.looseObject({ operationId: z.string() }));
        } catch (error) {
          // A refusal is answered to the model whatever happens here; the field names (never the values) stay in the worker's log.
          log.warn('memplane: a refused tool call could not be logged on memplane serve', {
            operation: request.operation,
            via: request.via,
            code: request.code,
            fields: request.fields,
            error: MemoryError.isInstance(error) ? error.code : 'unknown',
          });
          return { operationId: '' };
        }
      },
    };
    // A token that acts as agents lets the server hold the agent to itself; otherwise the worker does.
    return context.actor.kind === 'agent' && !actAsAgents ? guardAgentRuntime(plain, context.actor.agentId, companyOf(context)) : plain;
  }

  return {
    mode: 'http',
    control(context) {
      const send = inCompany(context);
      return {
        async getBinding(key) {
          try {
            return (await send({ method: 'GET', path: `/control/bindings/${segment(key)}`, operation: 'control.getBinding' }, shapes.bindingSchema)) as MemoryBinding;
          } catch (error) {
            if (isAbsent(error)) return undefined;
            throw error;
          }
        },
        listBindings: async () => (await send({ method: 'GET', path: '/control/bindings', operation: 'control.listBindings' }, shapes.listOf(shapes.bindingSchema))) as MemoryBinding[],
        createBinding: async (input) => (await send({ method: 'POST', path: '/control/bindings', operation: 'control.createBinding', body: input }, shapes.bindingSchema)) as MemoryBinding,
        updateBinding: async (key, input) =>
          (await send({ method: 'PATCH', path: `/control/bindings/${segment(key)}`, operation: 'control.updateBinding', body: input }, shapes.bindingSchema)) as MemoryBinding,
        setTarget: async (target, bindingKey) =>
          (await send({ method: 'PUT', path: '/control/targets', operation: 'control.setTarget', body: { target, bindingKey } }, shapes.targetSchema)) as MemoryBindingTarget,
        listTargets: async () => (await send({ method: 'GET', path: '/control/targets', operation: 'control.listTargets' }, shapes.listOf(shapes.targetSchema))) as MemoryBindingTarget[],
      };
    },
    runtime,
    explorer(context) {
      const send = inCompany(context);
      return {
        listOperations: async (query = {}) => (await send({ method: 'GET', path: '/explorer/operations', operation: 'explorer.listOperations', query: { ...query } }, shapes.pageSchema)) as never,
        countOperations: async (range = {}) =>
          (await send({ method: 'GET', path: '/explorer/operation-counts', operation: 'explorer.countOperations', query: { ...range } }, shapes.listOf(shapes.countsSchema))) as never,
      };
    },
    hooks: {
      preRunHydrate: async (context, input) =>
        (await inCompany(context)({ method: 'POST', path: '/memory/hooks/pre_run_hydrate', operation: 'hooks.preRunHydrate', body: input }, shapes.hydrationSchema)) as never,
      postRunCapture: async (context, input) =>
        (await inCompany(context)({ method: 'POST', path: '/memory/hooks/post_run_capture', operation: 'hooks.postRunCapture', body: input }, shapes.captureReportSchema)) as never,
      issueCommentCapture: async (context, input) =>
        (await inCompany(context)({ method: 'POST', path: '/memory/hooks/issue_comment_capture', operation: 'hooks.issueCommentCapture', body: input }, shapes.captureReportSchema)) as never,
      issueDocumentCapture: async (context, input) =>
        (await inCompany(context)({ method: 'POST', path: '/memory/hooks/issue_document_capture', operation: 'hooks.issueDocumentCapture', body: input }, shapes.captureReportSchema)) as never,
    },
    // The server writes its own log and usage counts.
    flush: async () => undefined,
    async health() {
      try {
        const session = await transport.call({ method: 'GET', path: '/v1/session', operation: 'session' }, shapes.sessionSchema);
        return { status: 'ok', details: { mode: 'http', server: transport.origin, actor: session.actor.kind, companies: session.companies.length } };
      } catch (error) {
        return { status: 'error', message: `memplane serve at ${transport.origin}: ${MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : 'unreachable'}` };
      }
    },
    close: async () => undefined,
  };
}
