import type { MemoryHookKind, MemoryScope } from '@memplane/core';
import type { MemoryActorKind } from '../../actor/memory-actor';
import type { MemoryOperationCount, MemoryOperationEntry, MemoryOperationStatus, MemoryOperationType } from '../memory-service-records';
import { compact, jsonList, jsonOrNull, orNull, storeColumns, text, time, type StoreRow, type StoreRowCodec } from './store-row-codec';

/** The columns of `memory_operations` in insert order; {@link writeOperationValues} follows it. */
export const operationColumns = storeColumns([
  ['id', 'text'],
  ['company_id', 'text'],
  ['binding_id', 'text'],
  ['binding_key', 'text'],
  ['provider_id', 'text'],
  ['operation', 'text'],
  ['status', 'text'],
  ['error_code', 'text'],
  ['error_message', 'text'],
  ['actor_kind', 'text'],
  ['actor_id', 'text'],
  ['agent_id', 'text'],
  ['project_id', 'text'],
  ['issue_id', 'text'],
  ['run_id', 'text'],
  ['subject_id', 'text'],
  ['session_key', 'text'],
  ['namespace', 'text'],
  ['source_kind', 'text'],
  ['source_json', 'json'],
  ['hook_kind', 'text'],
  ['hook_id', 'text'],
  ['heartbeat_run_id', 'text'],
  ['cost_event_id', 'text'],
  ['attribution_mode', 'text'],
  ['usage_json', 'json'],
  ['latency_ms', 'real'],
  ['record_ids_json', 'json'],
  ['result_count', 'integer'],
  ['dropped_out_of_scope', 'integer'],
  ['warnings_json', 'json'],
  ['details_json', 'json'],
  ['created_at', 'time'],
  ['extraction_failures', 'integer'],
]);

/**
 * Writes the values of one operation into `target` from `offset`, in {@link operationColumns}
 * order. Batches fill one array for many rows: no array per row, and none to flatten.
 */
export function writeOperationValues(entry: MemoryOperationEntry, target: unknown[], offset: number): void {
  const scope = entry.scope;
  let at = offset;
  target[at++] = entry.id;
  target[at++] = entry.companyId;
  target[at++] = orNull(entry.bindingId);
  target[at++] = orNull(entry.bindingKey);
  target[at++] = orNull(entry.providerId);
  target[at++] = entry.operation;
  target[at++] = entry.status;
  target[at++] = orNull(entry.errorCode);
  target[at++] = orNull(entry.errorMessage);
  target[at++] = entry.actor.kind;
  target[at++] = entry.actor.id;
  target[at++] = orNull(scope.agentId);
  target[at++] = orNull(scope.projectId);
  target[at++] = orNull(scope.issueId);
  target[at++] = orNull(scope.runId);
  target[at++] = orNull(scope.subjectId);
  target[at++] = orNull(scope.sessionKey);
  target[at++] = orNull(scope.namespace);
  target[at++] = orNull(entry.source?.kind);
  target[at++] = jsonOrNull(entry.source);
  target[at++] = orNull(entry.hookKind);
  target[at++] = orNull(entry.hookId);
  target[at++] = orNull(entry.heartbeatRunId);
  target[at++] = orNull(entry.costEventId);
  target[at++] = orNull(entry.attributionMode);
  target[at++] = jsonList(entry.usage);
  target[at++] = entry.latencyMs;
  target[at++] = entry.recordIds === undefined ? null : jsonList(entry.recordIds);
  target[at++] = orNull(entry.resultCount);
  target[at++] = entry.droppedOutOfScope;
  target[at++] = jsonList(entry.warnings);
  target[at++] = jsonOrNull(entry.details);
  target[at++] = entry.createdAt;
  target[at] = orNull(entry.extractionFailures);
}

/** The values of one operation in {@link operationColumns} order. */
export function operationValues(entry: MemoryOperationEntry): unknown[] {
  const values = new Array<unknown>(operationColumns.length);
  writeOperationValues(entry, values, 0);
  return values;
}

/** An operation row back as the entry. */
export function rowToOperation(row: StoreRow, codec: StoreRowCodec): MemoryOperationEntry {
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
    source: codec.readJson(row.source_json) as MemoryOperationEntry['source'],
    hookKind: text(row.hook_kind) as MemoryHookKind | undefined,
    hookId: text(row.hook_id),
    heartbeatRunId: text(row.heartbeat_run_id),
    costEventId: text(row.cost_event_id),
    attributionMode: text(row.attribution_mode) as MemoryOperationEntry['attributionMode'],
    usage: (codec.readJson(row.usage_json) as MemoryOperationEntry['usage'] | undefined) ?? [],
    latencyMs: Number(row.latency_ms),
    recordIds: codec.readJson(row.record_ids_json) as string[] | undefined,
    resultCount: row.result_count === null ? undefined : Number(row.result_count),
    droppedOutOfScope: Number(row.dropped_out_of_scope),
    extractionFailures: row.extraction_failures === null || row.extraction_failures === undefined ? undefined : Number(row.extraction_failures),
    warnings: (codec.readJson(row.warnings_json) as MemoryOperationEntry['warnings'] | undefined) ?? [],
    details: codec.readJson(row.details_json) as MemoryOperationEntry['details'],
    createdAt: time(row.created_at),
  });
}

/** A count row (`binding_id`, `binding_key`, `operation`, `succeeded`, `failed`, `dropped`) back as the count. */
export function rowToOperationCount(row: StoreRow): MemoryOperationCount {
  return {
    ...(row.binding_id === null ? {} : { bindingId: String(row.binding_id) }),
    ...(row.binding_key === null ? {} : { bindingKey: String(row.binding_key) }),
    operation: row.operation as MemoryOperationType,
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    droppedOutOfScope: Number(row.dropped),
  };
}
