import type { MemoryCallContext, MemoryControlPlane, MemoryExplorer, MemoryHooks, MemoryRuntime, MemoryService } from '@memplane/service';

/** Where the worker's memory service lives: hosted in the worker, or a `memplane serve` reached over HTTP. */
export type PluginServiceMode = 'worker' | 'http';

/** What the worker reports to Paperclip's health check. */
export interface PluginServiceHealth {
  status: 'ok' | 'degraded' | 'error';
  message?: string;
  details?: Record<string, unknown>;
}

/**
 * The one surface every hook, tool and UI data handler of the worker goes through. It is the
 * slice of `@memplane/service`'s `MemoryService` the worker uses, so the in-worker service is
 * one implementation and the HTTP client of a `memplane serve` the other, and no worker logic
 * exists twice.
 */
export interface PluginMemoryService {
  /** Which of the two implementations this is. */
  readonly mode: PluginServiceMode;
  /** Bindings and targets of one company (applying the config, the settings page). */
  control(context: MemoryCallContext): Pick<MemoryControlPlane, 'getBinding' | 'listBindings' | 'createBinding' | 'updateBinding' | 'setTarget' | 'listTargets'>;
  /** The runtime API the agent tools call. */
  runtime(context: MemoryCallContext): MemoryRuntime;
  /** The operation log the UI reads. */
  explorer(context: MemoryCallContext): Pick<MemoryExplorer, 'listOperations' | 'countOperations'>;
  /** The four hooks the Paperclip events map to. */
  readonly hooks: Pick<MemoryHooks, 'preRunHydrate' | 'postRunCapture' | 'issueCommentCapture' | 'issueDocumentCapture'>;
  /** Writes what is pending (usage counts, log entries); a no-op where the server owns its writes. */
  flush(): Promise<void>;
  /** Whether the service answers, for `onHealth`. */
  health(): Promise<PluginServiceHealth>;
  /** Releases what the worker holds (the store, or nothing for the HTTP client). */
  close(): Promise<void>;
}

/** The service hosted in the worker, as a {@link PluginMemoryService}. */
export function inWorkerMemoryService(service: MemoryService): PluginMemoryService & { readonly hosted: MemoryService } {
  return {
    mode: 'worker',
    hosted: service,
    control: (context) => service.control(context),
    runtime: (context) => service.runtime(context),
    explorer: (context) => service.explorer(context),
    hooks: service.hooks,
    flush: () => service.flush(),
    async health() {
      const metrics = service.metrics();
      return { status: 'ok', details: { mode: 'worker', operations: metrics.operations, failedOperations: metrics.failedOperations, deniedOperations: metrics.deniedOperations } };
    },
    close: () => service.close(),
  };
}
