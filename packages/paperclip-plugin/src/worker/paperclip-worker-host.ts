import type { MemoryCallContext, MemoryCaptureHookReport } from '@memplane/service';
import type { PluginContext, PluginEvent } from '@paperclipai/plugin-sdk';
import type { CaptureLedger } from './paperclip-capture-ledger';
import type { CompanyMemoryConfig } from './paperclip-plugin-config';
import type { PluginMemoryService } from './plugin-memory-service';

/** The system component the worker acts as in the service's logs. */
export const workerComponent = 'paperclip-plugin';

/** What the event handlers and tools share inside one worker. */
export interface PaperclipWorkerHost {
  ctx: PluginContext;
  /** The memory service: hosted in the worker, or `memplane serve` over HTTP. */
  service: PluginMemoryService;
  ledger: CaptureLedger;
  /** The company's memory config, its bindings applied through the control plane (once per config). */
  company(companyId: string): Promise<CompanyMemoryConfig>;
}

/** The context the worker emits hooks with: the system, in the event's company, inside the run when there is one. */
export function systemContext(companyId: string, heartbeatRunId?: string): MemoryCallContext {
  return { actor: { kind: 'system', component: workerComponent }, companyId, ...(heartbeatRunId === undefined ? {} : { heartbeatRunId }) };
}

/** A non-empty string field of an event's payload (payloads are untyped in the SDK). */
export function payloadText(event: PluginEvent, field: string): string | undefined {
  const payload = event.payload;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const value = (payload as Record<string, unknown>)[field];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A nullable host string as an optional one. */
export const present = (value: string | null | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Whether a capture hook settled: its built-in delivery succeeded or was skipped (the binding did
 * not opt in). A failed or timed-out delivery is not settled, so a redelivered event tries again.
 */
export function captureSettled(report: MemoryCaptureHookReport): boolean {
  const builtIn = report.deliveries[0];
  return builtIn === undefined || builtIn.status === 'succeeded' || builtIn.status === 'skipped';
}
