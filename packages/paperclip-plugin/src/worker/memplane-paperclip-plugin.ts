import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import { applyDeclaredCompanyBindings, ensureDefaultMarkdownBinding } from '@memplane/host';
import type { MemoryServiceSettings } from '@memplane/service';
import { definePlugin, type EnvSecretRefBinding, type PaperclipPlugin, type PluginContext, type PluginEvent } from '@paperclipai/plugin-sdk';
import { createCompanyRoutedService } from './company-routed-service';
import { createCaptureLedger } from './paperclip-capture-ledger';
import { captureComment, captureDocument, captureRun } from './paperclip-captures';
import { createCostMirror } from './paperclip-cost-mirror';
import { registerPaperclipMemoryTools } from './paperclip-memory-tools';
import { paperclipPluginConfigSchema, parsePluginConfig, type CompanyMemoryConfig } from './paperclip-plugin-config';
import { hydrateRun } from './paperclip-run-hydration';
import { toServiceSecretReferences } from './paperclip-secret-refs';
import { createPluginServiceRegistry, type PluginServiceRegistry } from './paperclip-service-host';
import type { PluginMemoryService } from './plugin-memory-service';
import { workerComponent, type PaperclipWorkerHost } from './paperclip-worker-host';

/** Options of {@link createMemplanePaperclipPlugin}: what the embedding code decides, not the settings page. */
export interface MemplanePaperclipPluginOptions {
  /** The data folder when a company's config names none. Default `~/.memplane/paperclip` (the worker user's home from its passwd entry). */
  dataDirectory?: string;
  /** Service settings over the worker's (extra providers, deadlines, hydration caps, a clock for tests); in http mode the server's own apply. */
  serviceSettings?: Partial<MemoryServiceSettings>;
}

/** A company's declared bindings as the service takes them: each Paperclip `secret_ref` turned into a key the plugin's resolver reads back. */
function serviceBindingsOf(config: CompanyMemoryConfig): CompanyMemoryConfig {
  return {
    ...config,
    bindings: config.bindings.map((binding, index) =>
      binding.config === undefined ? binding : { ...binding, config: toServiceSecretReferences(binding.config, `bindings.${index}.config`) as Record<string, unknown> },
    ),
  };
}

/** A company's parsed config and the service it names, its bindings applied. */
interface LoadedCompany {
  config: CompanyMemoryConfig;
  service: PluginMemoryService;
}

/**
 * Each company's config, read lazily with `ctx.config.get(companyId)` (Paperclip keeps one config
 * per plugin and company and has none without a company), then applied through the control plane
 * of the service it names: its declared bindings and targets, and a markdown default for a company
 * with none. Kept per company until the host says it changed. Only the company's own config is
 * read, so one company's settings can never bind another company's memory.
 */
function createCompanyConfigs(ctx: PluginContext, registry: PluginServiceRegistry) {
  const loaded = new Map<string, Promise<LoadedCompany>>();
  const apply = async (companyId: string, raw: unknown): Promise<LoadedCompany> => {
    const config = parsePluginConfig(raw);
    const service = await registry.serviceFor(companyId, config);
    await applyDeclaredCompanyBindings(service, workerComponent, companyId, serviceBindingsOf(config));
    await ensureDefaultMarkdownBinding(service, workerComponent, companyId);
    return { config, service };
  };
  const remember = (companyId: string, pending: Promise<LoadedCompany>) => {
    loaded.set(companyId, pending);
    // A config that failed to apply is tried again on the next call, not cached as broken.
    pending.catch(() => loaded.get(companyId) === pending && loaded.delete(companyId));
    return pending;
  };
  const load = (companyId: string) => loaded.get(companyId) ?? remember(companyId, ctx.config.get(companyId).then((raw) => apply(companyId, raw)));
  return {
    load,
    company: async (companyId: string) => (await load(companyId)).config,
    changed: (companyId: string, config: unknown) => remember(companyId, apply(companyId, config)),
    /** Forgets every company's config (a save without a company): each is read again on its next call. */
    forgetAll: () => loaded.clear(),
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
  /** The worker's memory service, routing each call to its company's service; undefined before `setup` and after `onShutdown`. */
  service(): PluginMemoryService | undefined;
  /** A company's parsed config (read with `ctx.config.get(companyId)` on first use), for the UI data handlers and the MCP bridge. */
  companyConfig(companyId: string): Promise<CompanyMemoryConfig>;
  /** The service a company's config names (hosted, or the `memplane serve` client), its bindings applied. */
  companyService(companyId: string): Promise<PluginMemoryService>;
}

const notStarted = () => new MemoryConfigurationError({ message: 'The memplane worker has not started (or has shut down)' });

/**
 * The memplane Paperclip plugin (worker side). Each company's config says where its memory lives
 * (`@memplane/service` hosted in the worker, or a `memplane serve` over `ctx.http`) and how it is
 * bound; the worker reads it when a call for that company first arrives. It maps Paperclip events
 * to the plan's hooks and registers the agent memory tools. `setup` reads no config: Paperclip has
 * none without a company.
 */
export function createMemplanePaperclipPlugin(options: MemplanePaperclipPluginOptions = {}): MemplanePaperclipPlugin {
  let worker: { host: PaperclipWorkerHost; configs: ReturnType<typeof createCompanyConfigs> } | undefined;
  const plugin = definePlugin({
    multiCompanyConfig: true,
    async setup(ctx) {
      const registry = createPluginServiceRegistry(
        {
          // The host binds a secret_ref at the config path it was saved at; resolution names both.
          resolveSecret: (ref, where) => ctx.secrets.resolve(ref as EnvSecretRefBinding, where),
          fetch: (url, init) => ctx.http.fetch(url, init),
          log: ctx.logger,
        },
        { recordCostEvent: createCostMirror(ctx), onBackgroundError: (error, task) => ctx.logger.error('memplane: background work failed', { task, error: messageOf(error) }), ...options.serviceSettings },
        options.dataDirectory,
      );
      const configs = createCompanyConfigs(ctx, registry);
      const service = createCompanyRoutedService({ serviceOf: async (companyId) => (await configs.load(companyId)).service, opened: () => registry.opened(), close: () => registry.close() });
      const host: PaperclipWorkerHost = { ctx, service, ledger: createCaptureLedger(ctx), company: configs.company };
      worker = { host, configs };
      ctx.events.on('agent.run.started', guarded(host, hydrateRun));
      ctx.events.on('issue.comment.created', guarded(host, captureComment));
      ctx.events.on('issue.document.created', guarded(host, captureDocument));
      ctx.events.on('issue.document.updated', guarded(host, captureDocument));
      for (const ended of ['agent.run.finished', 'agent.run.failed', 'agent.run.cancelled'] as const) ctx.events.on(ended, guarded(host, captureRun));
      registerPaperclipMemoryTools(host);
    },
    async onValidateConfig(config) {
      const parsed = paperclipPluginConfigSchema.safeParse(config ?? {});
      if (parsed.success) return { ok: true };
      return { ok: false, errors: parsed.error.issues.map((issue) => `${['config', ...issue.path].join('.')}: ${issue.message}`) };
    },
    async onConfigChanged(newConfig, change) {
      if (worker === undefined) return;
      // A company's save applies to that company alone; a save without one makes every company read its own again.
      if (change?.companyId == null) worker.configs.forgetAll();
      else await worker.configs.changed(change.companyId, newConfig);
    },
    async onHealth() {
      if (worker === undefined) return { status: 'degraded', message: 'memplane: the worker has not started' };
      return worker.host.service.health();
    },
    async onShutdown() {
      await worker?.host.service.close();
      worker = undefined;
    },
  });
  return {
    ...plugin,
    service: () => worker?.host.service,
    companyConfig: async (companyId) => {
      if (worker === undefined) throw notStarted();
      return worker.configs.company(companyId);
    },
    companyService: async (companyId) => {
      if (worker === undefined) throw notStarted();
      return (await worker.configs.load(companyId)).service;
    },
  };
}
