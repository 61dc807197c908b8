import type { MemoryExtractionJobStatus, MemoryHookKind } from '@memplane/core';
import type {
  MemoryActivityAction,
  MemoryActivityEntry,
  MemoryActorKind,
  MemoryBinding,
  MemoryBindingTarget,
  MemoryBindingTargetType,
  MemoryExtractionJobEntry,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryStatus,
} from '@memplane/service';

// Rows come back with SQL NULL for absent values; entries leave such fields out entirely.
export type Row = Record<string, unknown>;

export const text = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));
export const json = <Value>(value: unknown): Value | undefined => (value === null || value === undefined ? undefined : (value as Value));
export const time = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
export const orNull = <Value>(value: Value | undefined): Value | null => (value === undefined ? null : value);

export function compact<Entry extends object>(entry: Entry): Entry {
  for (const key of Object.keys(entry) as Array<keyof Entry>) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/**
 * A column of a batch insert through `json_to_recordset`: the batch travels as one JSON
 * parameter, and JSON columns are nested values rather than strings encoded twice.
 */
export interface RecordsetColumn {
  name: string;
  type: string;
}

/** `INSERT INTO <table> (<columns>) SELECT <columns> FROM json_to_recordset($1::json) AS r(<column> <type>, …)`. */
export function recordsetInsert(table: string, columns: readonly RecordsetColumn[]): string {
  const names = columns.map((column) => column.name).join(', ');
  const definition = columns.map((column) => `${column.name} ${column.type}`).join(', ');
  return `INSERT INTO ${table} (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS r(${definition})`;
}

export const bindingColumns =
  'id, company_id, key, provider_id, config_json, enabled, hooks_json, capabilities_json, quota_json, revision, created_at, updated_at';

/** The parameters of a binding in {@link bindingColumns} order. */
export function bindingValues(binding: MemoryBinding): unknown[] {
  return [
    binding.id,
    binding.companyId,
    binding.key,
    binding.providerId,
    JSON.stringify(binding.config),
    binding.enabled,
    JSON.stringify(binding.hooks),
    JSON.stringify(binding.capabilities),
    binding.quota === undefined ? null : JSON.stringify(binding.quota),
    binding.revision,
    binding.createdAt,
    binding.updatedAt,
  ];
}

export function rowToBinding(row: Row): MemoryBinding {
  return {
    id: String(row.id),
    companyId: String(row.company_id),
    key: String(row.key),
    providerId: String(row.provider_id),
    config: json(row.config_json) ?? {},
    enabled: row.enabled === true,
    hooks: json(row.hooks_json) ?? { postRunCapture: false, issueCommentCapture: false, issueDocumentCapture: false },
    capabilities: json(row.capabilities_json) ?? {},
    ...(row.quota_json === null || row.quota_json === undefined ? {} : { quota: row.quota_json as MemoryBinding['quota'] }),
    revision: Number(row.revision),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

export function rowToTarget(row: Row): MemoryBindingTarget {
  return {
    companyId: String(row.company_id),
    targetType: row.target_type as MemoryBindingTargetType,
    targetId: String(row.target_id),
    bindingId: String(row.binding_id),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

export const activityColumns: readonly RecordsetColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'company_id', type: 'text' },
  { name: 'actor_kind', type: 'text' },
  { name: 'actor_id', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'subject_type', type: 'text' },
  { name: 'subject_id', type: 'text' },
  { name: 'before_json', type: 'json' },
  { name: 'after_json', type: 'json' },
  { name: 'created_at', type: 'timestamptz' },
];

export function activityToRecord(entry: MemoryActivityEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: entry.subjectId,
    before_json: entry.before ?? null,
    after_json: entry.after ?? null,
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
    createdAt: time(row.created_at),
  };
}

export const deliveryColumns: readonly RecordsetColumn[] = [
  ...['id', 'company_id', 'hook_id', 'hook_kind', 'receiver', 'binding_id', 'status'].map((name) => ({ name, type: 'text' })),
  { name: 'attempts', type: 'integer' },
  { name: 'error', type: 'text' },
  { name: 'operation_id', type: 'text' },
  { name: 'started_at', type: 'timestamptz' },
  { name: 'finished_at', type: 'timestamptz' },
  { name: 'latency_ms', type: 'double precision' },
];

export function deliveryToRecord(entry: MemoryHookDeliveryEntry): Row {
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
    startedAt: time(row.started_at),
    finishedAt: time(row.finished_at),
    latencyMs: Number(row.latency_ms),
  });
}

export const jobColumns =
  'id, company_id, binding_id, binding_key, operation_id, provider_job_id, hook_kind, status, source_json, scope_json, error, submitted_at, started_at, finished_at, retry_count, created_at, updated_at';

/** The parameters of a job in {@link jobColumns} order. */
export function jobValues(entry: MemoryExtractionJobEntry): unknown[] {
  return [
    entry.id,
    entry.companyId,
    entry.bindingId,
    entry.bindingKey,
    orNull(entry.operationId),
    entry.providerJobId,
    orNull(entry.hookKind),
    entry.status,
    entry.source === undefined ? null : JSON.stringify(entry.source),
    JSON.stringify(entry.scope),
    orNull(entry.error),
    orNull(entry.submittedAt),
    orNull(entry.startedAt),
    orNull(entry.finishedAt),
    entry.retryCount,
    entry.createdAt,
    entry.updatedAt,
  ];
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
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  });
}
