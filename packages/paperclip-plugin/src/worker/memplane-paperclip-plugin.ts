import { MemoryError } from '@memplane/core';
import { applyDeclaredCompanyBindings, ensureDefaultMarkdownBinding, type MemoryServiceSettings } from '@memplane/service';
import { definePlugin, type PaperclipPlugin, type PluginContext, type PluginEvent } from '@paperclipai/plugin-sdk';
import { createCaptureLedger } from './paperclip-capture-ledger';
import { captureComment, captureDocument, captureRun } from './paperclip-captures';
import { createCostMirror } from './paperclip-cost-mirror';
import { registerPaperclipMemoryTools } from './paperclip-memory-tools';
import { companyConfigOf, defaultCompanyConfig, paperclipPluginConfigSchema, parsePluginConfig, type CompanyMemoryConfig, type PaperclipPluginConfig } from './paperclip-plugin-config';
import { hydrateRun } from './paperclip-run-hydration';
import { openPluginMemoryService } from './paperclip-service-host';
import type { PluginMemoryService } from './plugin-memory-service';
import { workerComponent, type PaperclipWorkerHost } from './paperclip-worker-host';

/** Options of {@link createMemplanePaperclipPlugin}: what the embedding code decides, not the settings page. */
export interface MemplanePaperclipPluginOptions {
  /** The data folder when the instance config names none. Default `~/.memplane/paperclip`. */
  dataDirectory?: string;
  /** Service settings over the worker's (extra providers, deadlines, hydration caps, a clock for tests); in http mode the server's own apply. */
  serviceSettings?: Partial<MemoryServiceSettings>;
}

/**
 * Applies a company's config through the control plane once per config: its declared bindings
 * and targets, or a markdown default for a company with none. Only the company's own entry is
 * read, so one company's settings can never bind another company's memory.
 */
function createCompanyConfigs(ctx: PluginContext, service: PluginMemoryService) {
  const applied = new Map<string, Promise<CompanyMemoryConfig>>();
  const apply = async (companyId: string, config: unknown): Promise<CompanyMemoryConfig> => {
    const company = companyConfigOf(parsePluginConfig(config), companyId);
    if (company !== undefined) await applyDeclaredCompanyBindings(service, workerComponent, companyId, company);
    await ensureDefaultMarkdownBinding(service, workerComponent, companyId);
    return company ?? defaultCompanyConfig;
  };
  const remember = (companyId: string, pending: Promise<CompanyMemoryConfig>) => {
    applied.set(companyId, pending);
    // A config that failed to apply is tried again on the next event, not cached as broken.
    pending.catch(() => applied.get(companyId) === pending && applied.delete(companyId));
    return pending;
  };
  return {
    company: (companyId: string) => applied.get(companyId) ?? remember(companyId, ctx.config.get(companyId).then((config) => apply(companyId, config))),
    changed: (companyId: string, config: unknown) => remember(companyId, apply(companyId, config)),
    known: () => [...applied.keys()],
  };
}

const messageOf = (error: unknown) => (MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : 'unknown error');

/** Runs an event handler so that a failure is logged, never thrown back at the host. */
function guarded(host: PaperclipWorkerHost, handler: (host: PaperclipWorkerHost, event: PluginEvent) => Promise<void>) {
  return async (event: PluginEvent) => {
    try {
      await handler(host, event);
    } catch (error) {
      host.ctx.logger.error('memplane: event handler failed', { eventId: event.eventId, eventType: event.eventType, error: messageOf(error) });
    }
  };
}

/** The plugin, and the service its worker uses once `setup` has run (for the UI data handlers and for inspection). */
export interface MemplanePaperclipPlugin extends PaperclipPlugin {
  /** The worker's memory service (hosted, or the `memplane serve` client); undefined before `setup` and after `onShutdown`. */
  service(): PluginMemoryService | undefined;
  /** The instance config `setup` read, for the UI data handlers (the inspector link). */
  instanceConfig(): PaperclipPluginConfig | undefined;
}

/**
 * The memplane Paperclip plugin (worker side): hosts `@memplane/service` in the worker or talks to a
 * `memplane serve` over `ctx.http`, binds each
 * company's memory from the instance config, maps Paperclip events to the plan's hooks and
 * registers the agent memory tools.
 */
export function createMemplanePaperclipPlugin(options: MemplanePaperclipPluginOptions = {}): MemplanePaperclipPlugin {
  let worker: { host: PaperclipWorkerHost; configs: ReturnType<typeof createCompanyConfigs>; instance: PaperclipPluginConfig } | undefined;
  const plugin = definePlugin({
    multiCompanyConfig: true,
    async setup(ctx) {
      const instance = parsePluginConfig(await ctx.config.get());
      const service = await openPluginMemoryService(
        instance,
        options.dataDirectory,
        {
          resolveSecret: (secretId, companyId) => ctx.secrets.resolve({ type: 'secret_ref', secretId }, companyId === undefined ? {} : { companyId }),
          fetch: (url, init) => ctx.http.fetch(url, init),
          log: ctx.logger,
        },
        { recordCostEvent: createCostMirror(ctx), onBackgroundError: (error, task) => ctx.logger.error('memplane: background work failed', { task, error: messageOf(error) }), ...options.serviceSettings },
      );
      const configs = createCompanyConfigs(ctx, service);
      const host: PaperclipWorkerHost = { ctx, service, ledger: createCaptureLedger(ctx), company: configs.company };
      worker = { host, configs, instance };
      ctx.events.on('agent.run.started', guarded(host, hydrateRun));
      ctx.events.on('issue.comment.created', guarded(host, captureComment));
      ctx.events.on('issue.document.created', guarded(host, captureDocument));
      ctx.events.on('issue.document.updated', guarded(host, captureDocument));
      for (const ended of ['agent.run.finished', 'agent.run.failed', 'agent.run.cancelled'] as const) ctx.events.on(ended, guarded(host, captureRun));
      registerPaperclipMemoryTools(host);
    },
    async onValidateConfig(config) {
      const parsed = paperclipPluginConfigSchema.safeParse(config);
      if (parsed.success) return { ok: true };
      return { ok: false, errors: parsed.error.issues.map((issue) => `${['config', ...issue.path].join('.')}: ${issue.message}`) };
    },
    async onConfigChanged(newConfig, change) {
      if (worker === undefined) return;
      // A company's save applies to that company alone; an instance-wide save re-applies every company seen so far.
      const companies = change?.companyId == null ? worker.configs.known() : [change.companyId];
      for (const companyId of companies) await worker.configs.changed(companyId, newConfig);
    },
    async onHealth() {
      if (worker === undefined) return { status: 'degraded', message: 'memplane: the worker has not started its memory service' };
      return worker.host.service.health();
    },
    async onShutdown() {
      await worker?.host.service.close();
      worker = undefined;
    },
  });
  return { ...plugin, service: () => worker?.host.service, instanceConfig: () => worker?.instance };
}
