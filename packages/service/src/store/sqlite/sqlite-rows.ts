import type { MemoryExtractionJobStatus, MemoryHookKind, MemoryScope } from '@memplane/core';
import type { MemoryActorKind } from '../../actor/memory-actor';
import type { MemoryBinding, MemoryBindingTarget, MemoryBindingTargetType } from '../../bindings/memory-binding';
import type {
  MemoryActivityAction,
  MemoryActivityEntry,
  MemoryExtractionJobEntry,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryStatus,
  MemoryOperationEntry,
  MemoryOperationStatus,
  MemoryOperationType,
} from '../memory-service-records';

// Rows come back with SQL NULL for absent values; entries leave such fields out entirely.
type Row = Record<string, unknown>;

const text = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));
const json = <Value>(value: unknown): Value | undefined => (typeof value === 'string' ? (JSON.parse(value) as Value) : undefined);
const orNull = (value: unknown): unknown => (value === undefined ? null : value);
const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

function compact<Entry extends object>(entry: Entry): Entry {
  for (const key of Object.keys(entry) as Array<keyof Entry>) if (entry[key] === undefined) delete entry[key];
  return entry;
}

export function bindingToRow(binding: MemoryBinding): Row {
  return {
    id: binding.id,
    company_id: binding.companyId,
    key: binding.key,
    provider_id: binding.providerId,
    config_json: JSON.stringify(binding.config),
    enabled: binding.enabled ? 1 : 0,
    hooks_json: JSON.stringify(binding.hooks),
    capabilities_json: JSON.stringify(binding.capabilities),
    quota_json: binding.quota === undefined ? null : JSON.stringify(binding.quota),
    revision: binding.revision,
    created_at: binding.createdAt,
    updated_at: binding.updatedAt,
  };
}

export function rowToBinding(row: Row): MemoryBinding {
  return {
    id: String(row.id),
    companyId: String(row.company_id),
    key: String(row.key),
    providerId: String(row.provider_id),
    config: json(row.config_json) ?? {},
    enabled: row.enabled === 1,
    hooks: json(row.hooks_json) ?? { postRunCapture: false, issueCommentCapture: false, issueDocumentCapture: false },
    capabilities: json(row.capabilities_json) ?? {},
    ...(typeof row.quota_json === 'string' ? { quota: JSON.parse(row.quota_json) as MemoryBinding['quota'] } : {}),
    revision: Number(row.revision),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export function rowToTarget(row: Row): MemoryBindingTarget {
  return {
    companyId: String(row.company_id),
    targetType: row.target_type as MemoryBindingTargetType,
    targetId: String(row.target_id),
    bindingId: String(row.binding_id),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export function activityToRow(entry: MemoryActivityEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: entry.subjectId,
    before_json: entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
    after_json: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
    created_at: entry.createdAt,
  };
}

export function rowToActivity(row: Row): MemoryActivityEntry {
  return {
    id: String(row.id),
    companyId: String(row.company_id),
    actor: { kind: row.actor_kind as MemoryActorKind, id: String(row.actor_id) },
    action: row.action as MemoryActivityAction,
    subjectType: row.subject_type as 'binding' | 'target',
    subjectId: String(row.subject_id),
    before: json(row.before_json) ?? null,
    after: json(row.after_json) ?? null,
    createdAt: String(row.created_at),
  };
}

/** The columns of `memory_operations` in insert order; {@link operationValues} follows it. */
export const operationColumns = [
  'id', 'company_id', 'binding_id', 'binding_key', 'provider_id', 'operation', 'status', 'error_code', 'error_message',
  'actor_kind', 'actor_id', 'agent_id', 'project_id', 'issue_id', 'run_id', 'subject_id', 'session_key', 'namespace',
  'source_kind', 'source_json', 'hook_kind', 'hook_id', 'heartbeat_run_id', 'cost_event_id', 'attribution_mode',
  'usage_json', 'latency_ms', 'record_ids_json', 'result_count', 'dropped_out_of_scope', 'warnings_json', 'details_json',
  'created_at', 'extraction_failures',
] as const;

/** The values of one operation in {@link operationColumns} order: positional binding is the cheapest per row. */
export function operationValues(entry: MemoryOperationEntry): unknown[] {
  const scope = entry.scope;
  return [
    entry.id,
    entry.companyId,
    orNull(entry.bindingId),
    orNull(entry.bindingKey),
    orNull(entry.providerId),
    entry.operation,
    entry.status,
    orNull(entry.errorCode),
    orNull(entry.errorMessage),
    entry.actor.kind,
    entry.actor.id,
    orNull(scope.agentId),
    orNull(scope.projectId),
    orNull(scope.issueId),
    orNull(scope.runId),
    orNull(scope.subjectId),
    orNull(scope.sessionKey),
    orNull(scope.namespace),
    orNull(entry.source?.kind),
    jsonOrNull(entry.source),
    orNull(entry.hookKind),
    orNull(entry.hookId),
    orNull(entry.heartbeatRunId),
    orNull(entry.costEventId),
    orNull(entry.attributionMode),
    JSON.stringify(entry.usage),
    entry.latencyMs,
    jsonOrNull(entry.recordIds),
    orNull(entry.resultCount),
    entry.droppedOutOfScope,
    JSON.stringify(entry.warnings),
    jsonOrNull(entry.details),
    entry.createdAt,
    orNull(entry.extractionFailures),
  ];
}

export function rowToOperation(row: Row): MemoryOperationEntry {
  const scope: MemoryScope = compact({
    companyId: String(row.company_id),
    agentId: text(row.agent_id),
    projectId: text(row.project_id),
    issueId: text(row.issue_id),
    runId: text(row.run_id),
    subjectId: text(row.subject_id),
    sessionKey: text(row.session_key),
    namespace: text(row.namespace),
  });
  return compact<MemoryOperationEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    bindingId: text(row.binding_id),
    bindingKey: text(row.binding_key),
    providerId: text(row.provider_id),
    operation: row.operation as MemoryOperationType,
    status: row.status as MemoryOperationStatus,
    errorCode: text(row.error_code),
    errorMessage: text(row.error_message),
    actor: { kind: row.actor_kind as MemoryActorKind, id: String(row.actor_id) },
    scope,
    source: json(row.source_json),
    hookKind: text(row.hook_kind) as MemoryHookKind | undefined,
    hookId: text(row.hook_id),
    heartbeatRunId: text(row.heartbeat_run_id),
    costEventId: text(row.cost_event_id),
    attributionMode: text(row.attribution_mode) as MemoryOperationEntry['attributionMode'],
    usage: json(row.usage_json) ?? [],
    latencyMs: Number(row.latency_ms),
    recordIds: json(row.record_ids_json),
    resultCount: row.result_count === null ? undefined : Number(row.result_count),
    droppedOutOfScope: Number(row.dropped_out_of_scope),
    extractionFailures: row.extraction_failures === null || row.extraction_failures === undefined ? undefined : Number(row.extraction_failures),
    warnings: json(row.warnings_json) ?? [],
    details: json(row.details_json),
    createdAt: String(row.created_at),
  });
}

export function deliveryToRow(entry: MemoryHookDeliveryEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    hook_id: entry.hookId,
    hook_kind: entry.hookKind,
    receiver: entry.receiver,
    binding_id: orNull(entry.bindingId),
    status: entry.status,
    attempts: entry.attempts,
    error: orNull(entry.error),
    operation_id: orNull(entry.operationId),
    started_at: entry.startedAt,
    finished_at: entry.finishedAt,
    latency_ms: entry.latencyMs,
  };
}

export function rowToDelivery(row: Row): MemoryHookDeliveryEntry {
  return compact<MemoryHookDeliveryEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    hookId: String(row.hook_id),
    hookKind: row.hook_kind as MemoryHookKind,
    receiver: String(row.receiver),
    bindingId: text(row.binding_id),
    status: row.status as MemoryHookDeliveryStatus,
    attempts: Number(row.attempts),
    error: text(row.error),
    operationId: text(row.operation_id),
    startedAt: String(row.started_at),
    finishedAt: String(row.finished_at),
    latencyMs: Number(row.latency_ms),
  });
}

export function jobToRow(entry: MemoryExtractionJobEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    binding_id: entry.bindingId,
    binding_key: entry.bindingKey,
    operation_id: orNull(entry.operationId),
    provider_job_id: entry.providerJobId,
    hook_kind: orNull(entry.hookKind),
    status: entry.status,
    source_json: jsonOrNull(entry.source),
    scope_json: JSON.stringify(entry.scope),
    error: orNull(entry.error),
    submitted_at: orNull(entry.submittedAt),
    started_at: orNull(entry.startedAt),
    finished_at: orNull(entry.finishedAt),
    retry_count: entry.retryCount,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  };
}

export function rowToJob(row: Row): MemoryExtractionJobEntry {
  return compact<MemoryExtractionJobEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    bindingId: String(row.binding_id),
    bindingKey: String(row.binding_key),
    operationId: text(row.operation_id),
    providerJobId: String(row.provider_job_id),
    hookKind: text(row.hook_kind) as MemoryHookKind | undefined,
    status: row.status as MemoryExtractionJobStatus,
    source: json(row.source_json),
    scope: json(row.scope_json) ?? { companyId: String(row.company_id) },
    error: text(row.error),
    submittedAt: text(row.submitted_at),
    startedAt: text(row.started_at),
    finishedAt: text(row.finished_at),
    retryCount: Number(row.retry_count),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  });
}
