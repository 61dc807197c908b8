import type { MemoryExtractionJobStatus, MemoryHookKind } from '@memplane/core';
import type { MemoryExtractionJobEntry, MemoryHookDeliveryEntry, MemoryHookDeliveryStatus } from '../memory-service-records';
import { compact, jsonOrNull, orNull, storeColumns, text, time, type StoreRow, type StoreRowCodec } from './store-row-codec';

/** The columns of `memory_hook_deliveries`; {@link deliveryValues} follows their order. */
export const deliveryColumns = storeColumns([
  ['id', 'text'],
  ['company_id', 'text'],
  ['hook_id', 'text'],
  ['hook_kind', 'text'],
  ['receiver', 'text'],
  ['binding_id', 'text'],
  ['status', 'text'],
  ['attempts', 'integer'],
  ['error', 'text'],
  ['operation_id', 'text'],
  ['started_at', 'time'],
  ['finished_at', 'time'],
  ['latency_ms', 'real'],
]);

/** The values of a hook delivery in {@link deliveryColumns} order. */
export function deliveryValues(entry: MemoryHookDeliveryEntry): unknown[] {
  return [
    entry.id,
    entry.companyId,
    entry.hookId,
    entry.hookKind,
    entry.receiver,
    orNull(entry.bindingId),
    entry.status,
    entry.attempts,
    orNull(entry.error),
    orNull(entry.operationId),
    entry.startedAt,
    entry.finishedAt,
    entry.latencyMs,
  ];
}

/** A hook delivery row back as the entry. */
export function rowToDelivery(row: StoreRow): MemoryHookDeliveryEntry {
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

/**
 * The columns of `memory_extraction_jobs`; {@link jobValues} follows their order. The times a
 * provider reports (submitted, started, finished) stay text, exactly as reported.
 */
export const jobColumns = storeColumns([
  ['id', 'text'],
  ['company_id', 'text'],
  ['binding_id', 'text'],
  ['binding_key', 'text'],
  ['operation_id', 'text'],
  ['provider_job_id', 'text'],
  ['hook_kind', 'text'],
  ['status', 'text'],
  ['source_json', 'json'],
  ['scope_json', 'json'],
  ['error', 'text'],
  ['submitted_at', 'text'],
  ['started_at', 'text'],
  ['finished_at', 'text'],
  ['retry_count', 'integer'],
  ['created_at', 'time'],
  ['updated_at', 'time'],
]);

/** The values of an extraction job in {@link jobColumns} order. */
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
    jsonOrNull(entry.source),
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

/** An extraction job row back as the entry. */
export function rowToJob(row: StoreRow, codec: StoreRowCodec): MemoryExtractionJobEntry {
  return compact<MemoryExtractionJobEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    bindingId: String(row.binding_id),
    bindingKey: String(row.binding_key),
    operationId: text(row.operation_id),
    providerJobId: String(row.provider_job_id),
    hookKind: text(row.hook_kind) as MemoryHookKind | undefined,
    status: row.status as MemoryExtractionJobStatus,
    source: codec.readJson(row.source_json) as MemoryExtractionJobEntry['source'],
    scope: (codec.readJson(row.scope_json) as MemoryExtractionJobEntry['scope'] | undefined) ?? { companyId: String(row.company_id) },
    error: text(row.error),
    submittedAt: text(row.submitted_at),
    startedAt: text(row.started_at),
    finishedAt: text(row.finished_at),
    retryCount: Number(row.retry_count),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  });
}
