import { MemoryValidationError } from '@memplane/core';
import { MemoryAccessDeniedError, type MemoryCallContext, type MemoryRuntime } from '@memplane/service';
import type { PluginMemoryService, PluginServiceHealth } from './plugin-memory-service';

/** What the router needs: a company's service, its config loaded and its bindings applied. */
export interface CompanyServiceSource {
  /** The service the company's config names (opened and bound on first use). */
  serviceOf(companyId: string): Promise<PluginMemoryService>;
  /** Every service opened so far, for flush and health. */
  opened(): PluginMemoryService[];
  /** Closes every service. */
  close(): Promise<void>;
}

/**
 * The company a call belongs to: an agent's or member's own company (the service refuses any
 * other), else the context's. An agent or member whose context names another company is refused
 * here, before any service is chosen, so a call can never be routed to another company's storage.
 */
export function routedCompanyOf(context: MemoryCallContext, operation: string): string {
  const own = context.actor.kind === 'agent' || context.actor.kind === 'company' ? context.actor.companyId : undefined;
  if (own !== undefined && context.companyId !== undefined && context.companyId !== own) {
    throw new MemoryAccessDeniedError({ operation, companyId: context.companyId, reason: `the caller belongs to company "${own}"` });
  }
  const companyId = own ?? context.companyId;
  if (companyId === undefined) throw new MemoryValidationError({ target: 'call context', issues: [{ path: 'context.companyId', message: 'is required: each company has its own memory config' }] });
  return companyId;
}

/**
 * Every method of a surface, named once: the mapped type makes a method the service adds later a
 * compile error here, instead of a method the router silently lacks.
 */
type EveryMethod<Surface> = { readonly [Name in keyof Surface]-?: true };
const namesOf = <Surface>(methods: EveryMethod<Surface>) => Object.keys(methods) as Array<keyof Surface>;

type ControlSurface = ReturnType<PluginMemoryService['control']>;
type ExplorerSurface = ReturnType<PluginMemoryService['explorer']>;

const runtimeMethods = namesOf<MemoryRuntime>({
  capture: true,
  upsertRecords: true,
  query: true,
  list: true,
  get: true,
  forget: true,
  correct: true,
  profile: true,
  listProviderExtractionJobs: true,
  retryExtractionJob: true,
  refreshExtractionJobs: true,
  listExtractionJobs: true,
  logRefusedCall: true,
});
const controlMethods = namesOf<ControlSurface>({ getBinding: true, listBindings: true, createBinding: true, updateBinding: true, setTarget: true, listTargets: true });
const explorerMethods = namesOf<ExplorerSurface>({ listOperations: true, countOperations: true });

type AsyncMethods<Surface> = { [Name in keyof Surface]: Surface[Name] extends (...args: infer Args) => Promise<infer Result> ? (...args: Args) => Promise<Result> : never };

/** An object whose named methods run on the surface `open` gives, once it is there. */
function deferred<Surface>(names: ReadonlyArray<keyof Surface>, open: () => Promise<Surface>): Surface {
  const surface: Partial<Record<keyof Surface, unknown>> = {};
  for (const name of names) {
    surface[name] = async (...args: unknown[]) => {
      const target = await open();
      return (target[name] as (...args: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return surface as AsyncMethods<Surface> as Surface;
}

/**
 * One {@link PluginMemoryService} over the services of every company: each call goes to the
 * service its company's config names (loading that config on first use). The event handlers,
 * tools and UI data handlers use this one surface and never pick a service themselves.
 */
export function createCompanyRoutedService(source: CompanyServiceSource): PluginMemoryService {
  const serviceFor = (context: MemoryCallContext, operation: string) => {
    try {
      return source.serviceOf(routedCompanyOf(context, operation));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return {
    // The mode of a company's own service is what matters; the router is worker-side.
    mode: 'worker',
    control: (context) => deferred<ControlSurface>(controlMethods, async () => (await serviceFor(context, 'control')).control(context)),
    runtime: (context) => deferred<MemoryRuntime>(runtimeMethods, async () => (await serviceFor(context, 'runtime')).runtime(context)),
    explorer: (context) => deferred<ExplorerSurface>(explorerMethods, async () => (await serviceFor(context, 'explorer')).explorer(context)),
    hooks: {
      preRunHydrate: async (context, input) => (await serviceFor(context, 'preRunHydrate')).hooks.preRunHydrate(context, input),
      postRunCapture: async (context, input) => (await serviceFor(context, 'postRunCapture')).hooks.postRunCapture(context, input),
      issueCommentCapture: async (context, input) => (await serviceFor(context, 'issueCommentCapture')).hooks.issueCommentCapture(context, input),
      issueDocumentCapture: async (context, input) => (await serviceFor(context, 'issueDocumentCapture')).hooks.issueDocumentCapture(context, input),
    },
    async flush() {
      for (const service of source.opened()) await service.flush();
    },
    async health(): Promise<PluginServiceHealth> {
      const services = source.opened();
      const reports = await Promise.all(services.map((service) => service.health()));
      const worst = reports.find((report) => report.status === 'error') ?? reports.find((report) => report.status === 'degraded');
      const details = { services: reports.map((report) => ({ status: report.status, ...(report.message === undefined ? {} : { message: report.message }), ...report.details })) };
      if (worst !== undefined) return { status: worst.status, ...(worst.message === undefined ? {} : { message: worst.message }), details };
      return { status: 'ok', ...(services.length === 0 ? { message: 'memplane: no company has used memory yet; services open on first use' } : {}), details };
    },
    close: () => source.close(),
  };
}
