import type { MemoryAttributionMode, MemoryUsage } from '@memplane/core';

/** What the host's cost ledger needs to mirror directly billed memory usage. */
export interface MemoryCostEvent {
  /** The service's own cost event id (the first `cost_events` row of the operation). */
  costEventId: string;
  /** The operation the cost belongs to; the cost event links back to it. */
  operationId: string;
  /** The company billed. */
  companyId: string;
  /** The agent, issue and run of the operation, when known. */
  agentId?: string;
  issueId?: string;
  runId?: string;
  /** The heartbeat run, when the operation ran inside one. */
  heartbeatRunId?: string;
  /** The binding and provider. */
  bindingKey: string;
  providerId: string;
  /** The usage entries that carry counters (tokens or cost), as the provider reported them. */
  usage: MemoryUsage[];
}

/**
 * Mirrors a cost event into the host's ledger (Paperclip's `cost_events`) and returns the id it
 * got there, which the service keeps on its own rows (`externalId`). Called only for directly
 * billed usage that reports counters, after the service built its own `cost_events` rows.
 */
export type MemoryCostEventRecorder = (event: MemoryCostEvent) => string | undefined | Promise<string | undefined>;

/** Whether a usage entry reports anything billable. Counters are only set when the provider reported them. */
export function hasBillableCounters(entry: MemoryUsage): boolean {
  return (
    entry.costCents !== undefined ||
    entry.inputTokens !== undefined ||
    entry.outputTokens !== undefined ||
    entry.cachedInputTokens !== undefined ||
    entry.embeddingTokens !== undefined
  );
}

/**
 * The plan's attribution rule: the caller's explicit mode first; else what the provider
 * reported, unless it only said `untracked`; else `included_in_run` inside a heartbeat run (the
 * run already accounts for its work, so no duplicate cost event); else `untracked`.
 */
export function attributionModeOf(
  explicit: MemoryAttributionMode | undefined,
  usage: readonly MemoryUsage[],
  heartbeatRunId: string | undefined,
): MemoryAttributionMode {
  if (explicit !== undefined) return explicit;
  const reported = usage.find((entry) => entry.attributionMode !== undefined && entry.attributionMode !== 'untracked')?.attributionMode;
  if (reported !== undefined) return reported;
  return heartbeatRunId === undefined ? 'untracked' : 'included_in_run';
}
