import type {
  MemoryAttributionMode,
  MemoryExtractionJobStatus,
  MemoryHookKind,
  MemoryScope,
  MemorySourceKind,
  MemorySourceRef,
  MemoryUsage,
  MemoryWarning,
} from '@memplane/core';
import type { MemoryActorKind, MemoryActorReference } from '../actor/memory-actor';

/**
 * What a control-plane change did: binding and target changes, a binding config the operator's
 * policy refused (`binding.refused`), a prune of the operation log (`log.pruned`), and a
 * provider registered or replaced (`provider.registered`, `provider.replaced`).
 */
export type MemoryActivityAction =
  | 'binding.created'
  | 'binding.updated'
  | 'binding.deleted'
  | 'binding.refused'
  | 'target.set'
  | 'target.removed'
  | 'log.pruned'
  | 'provider.registered'
  | 'provider.replaced';

/** What an activity entry is about. */
export type MemoryActivitySubjectType = 'binding' | 'target' | 'operation_log' | 'provider';

/** One entry of the activity log: every binding and target change, with the state before and after. */
export interface MemoryActivityEntry {
  /** The entry id (`act_…`). */
  id: string;
  /** The company whose bindings changed. */
  companyId: string;
  /** Who made the change. */
  actor: MemoryActorReference;
  /** What changed. */
  action: MemoryActivityAction;
  /** `binding`, `target`, `operation_log` or `provider`. */
  subjectType: MemoryActivitySubjectType;
  /** The binding id (a fresh, never-saved id for a refused creation), `<targetType>:<targetId>` for a target, `memory_operations` for a prune, the provider id. */
  subjectId: string;
  /** The state before the change (secrets as references), or null when it was created. */
  before: unknown;
  /** The state after the change, or null when it was removed. */
  after: unknown;
  /** When (ISO 8601). */
  createdAt: string;
}

/**
 * The operation types of the `memory_operations` log, as the plan names them, plus the
 * optional surfaces the service exposes.
 */
export type MemoryOperationType =
  | 'capture'
  | 'record_upsert'
  | 'query'
  | 'list'
  | 'get'
  | 'forget'
  | 'correct'
  | 'profile'
  | 'extraction_job_list'
  | 'extraction_job_retry'
  | 'extraction_job_refresh'
  | 'retention_prune';

/** Whether an operation succeeded. */
export type MemoryOperationStatus = 'succeeded' | 'failed';

/** One row of `memory_operations`: every operation through the service, failures included. Never record text. */
export interface MemoryOperationEntry {
  /** The operation id (`op_…`), returned to the caller so cost events can link to it. */
  id: string;
  /** The company the operation ran in. */
  companyId: string;
  /** The binding it ran through; absent when it failed before resolution. */
  bindingId?: string;
  /** The binding key at the time. */
  bindingKey?: string;
  /** The binding's provider id at the time. */
  providerId?: string;
  /** What was done. */
  operation: MemoryOperationType;
  /** Success or failure. */
  status: MemoryOperationStatus;
  /** The `MEMORY_*` code of the failure. */
  errorCode?: string;
  /** The failure message. */
  errorMessage?: string;
  /** Who called. */
  actor: MemoryActorReference;
  /** The scope the operation ran in (the company always set). */
  scope: MemoryScope;
  /** The provenance of a capture or write. */
  source?: MemorySourceRef;
  /** The hook that caused it, if any. */
  hookKind?: MemoryHookKind;
  /** The hook delivery id, if any. */
  hookId?: string;
  /** The heartbeat run the operation belongs to. */
  heartbeatRunId?: string;
  /** The cost event recorded for it, when there is one. */
  costEventId?: string;
  /** How its cost is attributed. */
  attributionMode?: MemoryAttributionMode;
  /** Usage the provider reported (counters only when reported). */
  usage: MemoryUsage[];
  /** Wall-clock time through the service, in milliseconds. */
  latencyMs: number;
  /** Provider record ids returned or addressed (at most 100). */
  recordIds?: string[];
  /** Snippets or items returned. */
  resultCount?: number;
  /** Records a provider returned outside the scope, dropped before the caller saw them. */
  droppedOutOfScope: number;
  /** Extraction jobs this operation saw end in failure (a capture, a refresh, a listing, a retry). */
  extractionFailures?: number;
  /** Warnings of the result (at most 20). */
  warnings: MemoryWarning[];
  /** Small per-operation facts: topK, intent, limit, query length. Never record text. */
  details?: Record<string, unknown>;
  /** When it started (ISO 8601). */
  createdAt: string;
}

/** Explorer filters over the operation log. Every field set must match. */
export interface MemoryOperationFilter {
  /** The company (always set: the explorer never crosses companies). */
  companyId: string;
  /** Only this binding. */
  bindingId?: string;
  /** Only this agent (scope): the agent the records belong to, not who called. */
  agentId?: string;
  /**
   * Only operations this actor called (the `actor.id` of the entry: the agent id, user id,
   * operator id or component), whatever their scope names: an agent's company-wide reads and
   * the calls refused to it included.
   */
  actorId?: string;
  /** Only operations of this kind of actor (the explorer takes it only beside `actorId`). */
  actorKind?: MemoryActorKind;
  /** Only this issue (scope). */
  issueId?: string;
  /** Only this project (scope). */
  projectId?: string;
  /** Only this run: the scope's run or the heartbeat run. */
  runId?: string;
  /** Only operations whose source has this kind. */
  sourceKind?: MemorySourceKind;
  /** Only this operation type. */
  operation?: MemoryOperationType;
  /** Only this status. */
  status?: MemoryOperationStatus;
  /** Only operations at or after this time (ISO 8601). */
  from?: string;
  /** Only operations before this time (ISO 8601). */
  to?: string;
}

/** Per-binding operation counts. */
export interface MemoryOperationCount {
  /** The binding, or undefined for operations that failed before resolution. */
  bindingId?: string;
  /** The binding key recorded with the operations. */
  bindingKey?: string;
  /** The operation type. */
  operation: MemoryOperationType;
  /** Succeeded operations. */
  succeeded: number;
  /** Failed operations. */
  failed: number;
  /** Records dropped as out of scope. */
  droppedOutOfScope: number;
}

/** How a hook delivery ended. `skipped`: the binding has the capture hook off. */
export type MemoryHookDeliveryStatus = 'succeeded' | 'failed' | 'timed_out' | 'skipped';

/** One delivery of one hook to one receiver (the binding's provider, or a subscriber). */
export interface MemoryHookDeliveryEntry {
  /** The delivery id (`dlv_…`). */
  id: string;
  /** The company the hook fired in. */
  companyId: string;
  /** The hook firing id, shared by every delivery of the same firing. */
  hookId: string;
  /** The hook kind. */
  hookKind: MemoryHookKind;
  /** `binding:<key>` for the built-in delivery to the resolved binding, else the subscriber's name. */
  receiver: string;
  /** The binding involved, if any. */
  bindingId?: string;
  /** How it ended. */
  status: MemoryHookDeliveryStatus;
  /** Attempts made (0 when skipped). */
  attempts: number;
  /** The last error, for failed and timed-out deliveries, or why it was skipped. */
  error?: string;
  /** The operation the delivery ran, if any. */
  operationId?: string;
  /** When the delivery started (ISO 8601). */
  startedAt: string;
  /** When it ended (ISO 8601). */
  finishedAt: string;
  /** How long it took, in milliseconds. */
  latencyMs: number;
}

/** Filters over hook deliveries. */
export interface MemoryHookDeliveryFilter {
  /** The company (always set). */
  companyId: string;
  /** Only this hook kind. */
  hookKind?: MemoryHookKind;
  /** Only this status. */
  status?: MemoryHookDeliveryStatus;
  /** Only the deliveries of one firing. */
  hookId?: string;
}

/** An extraction job as the service keeps it: the provider's job plus where it came from. */
export interface MemoryExtractionJobEntry {
  /** The service's job id (`job_…`). */
  id: string;
  /** The company. */
  companyId: string;
  /** The binding whose provider runs the job. */
  bindingId: string;
  /** The binding key at submission. */
  bindingKey: string;
  /** The capture operation that started it. */
  operationId?: string;
  /** The provider's job id. Unique per binding. */
  providerJobId: string;
  /** The hook that caused the capture. */
  hookKind?: MemoryHookKind;
  /** Where the job stands. */
  status: MemoryExtractionJobStatus;
  /** The captured source. */
  source?: MemorySourceRef;
  /** The capture's scope, used to poll and retry the job. */
  scope: MemoryScope;
  /** Why it failed. */
  error?: string;
  /** Provider timestamps (ISO 8601). */
  submittedAt?: string;
  startedAt?: string;
  finishedAt?: string;
  /** Retries requested through the service. */
  retryCount: number;
  /** When the service first saw the job, and last changed it (ISO 8601). */
  createdAt: string;
  updatedAt: string;
}

/** Filters over extraction jobs. */
export interface MemoryExtractionJobFilter {
  /** The company (always set). */
  companyId: string;
  /** Only this binding. */
  bindingId?: string;
  /** Only these statuses. */
  statuses?: MemoryExtractionJobStatus[];
  /** Only jobs caused by this hook. */
  hookKind?: MemoryHookKind;
}

/** A keyset page request: entries strictly older than `after` (a position from a previous page), newest first. */
export interface MemoryStorePageRequest {
  /** The position of the last entry of the previous page. */
  after?: number;
  /** Page size, 1 to 500. */
  limit: number;
}

/** A page of entries with their positions. */
export interface MemoryStorePage<Entry> {
  /** The entries, newest first. */
  items: Entry[];
  /** The position to pass as `after` for the next page; absent on the last page. */
  nextAfter?: number;
}
