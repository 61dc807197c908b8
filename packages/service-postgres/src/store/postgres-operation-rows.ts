import type { MemoryHookKind, MemoryScope } from '@memplane/core';
import type { MemoryActorKind, MemoryOperationEntry, MemoryOperationStatus, MemoryOperationType } from '@memplane/service';
import { compact, json, orNull, text, time, type RecordsetColumn, type Row } from './postgres-rows';

/** The columns of `memory_operations` as a batch insert declares them; {@link operationToRecord} fills them. */
export const operationColumns: readonly RecordsetColumn[] = [
  ...['id', 'company_id', 'binding_id', 'binding_key', 'provider_id', 'operation', 'status', 'error_code', 'error_message']
    .concat(['actor_kind', 'actor_id', 'agent_id', 'project_id', 'issue_id', 'run_id', 'subject_id', 'session_key', 'namespace'])
    .concat(['source_kind'])
    .map((name) => ({ name, type: 'text' })),
  { name: 'source_json', type: 'json' },
  ...['hook_kind', 'hook_id', 'heartbeat_run_id', 'cost_event_id', 'attribution_mode'].map((name) => ({ name, type: 'text' })),
  { name: 'usage_json', type: 'json' },
  { name: 'latency_ms', type: 'double precision' },
  { name: 'record_ids_json', type: 'json' },
  { name: 'result_count', type: 'integer' },
  { name: 'dropped_out_of_scope', type: 'integer' },
  { name: 'warnings_json', type: 'json' },
  { name: 'details_json', type: 'json' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'extraction_failures', type: 'integer' },
];

export function operationToRecord(entry: MemoryOperationEntry): Row {
  const scope = entry.scope;
  return {
    id: entry.id,
    company_id: entry.companyId,
    binding_id: orNull(entry.bindingId),
    binding_key: orNull(entry.bindingKey),
    provider_id: orNull(entry.providerId),
    operation: entry.operation,
    status: entry.status,
    error_code: orNull(entry.errorCode),
    error_message: orNull(entry.errorMessage),
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    agent_id: orNull(scope.agentId),
    project_id: orNull(scope.projectId),
    issue_id: orNull(scope.issueId),
    run_id: orNull(scope.runId),
    subject_id: orNull(scope.subjectId),
    session_key: orNull(scope.sessionKey),
    namespace: orNull(scope.namespace),
    source_kind: orNull(entry.source?.kind),
    source_json: orNull(entry.source),
    hook_kind: orNull(entry.hookKind),
    hook_id: orNull(entry.hookId),
    heartbeat_run_id: orNull(entry.heartbeatRunId),
    cost_event_id: orNull(entry.costEventId),
    attribution_mode: orNull(entry.attributionMode),
    usage_json: entry.usage,
    latency_ms: entry.latencyMs,
    record_ids_json: orNull(entry.recordIds),
    result_count: orNull(entry.resultCount),
    dropped_out_of_scope: entry.droppedOutOfScope,
    warnings_json: entry.warnings,
    details_json: orNull(entry.details),
    created_at: entry.createdAt,
    extraction_failures: orNull(entry.extractionFailures),
  };
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
    createdAt: time(row.created_at),
  });
}
