import type { MemoryActorKind } from '../../actor/memory-actor';
import type { MemoryBinding, MemoryBindingTarget, MemoryBindingTargetType } from '../../bindings/memory-binding';
import type { MemoryActivityAction, MemoryActivityEntry } from '../memory-service-records';
import { flag, jsonOrNull, storeColumns, time, type StoreRow, type StoreRowCodec } from './store-row-codec';

/** The columns of `memory_bindings`; {@link bindingValues} follows their order. */
export const bindingColumns = storeColumns([
  ['id', 'text'],
  ['company_id', 'text'],
  ['key', 'text'],
  ['provider_id', 'text'],
  ['config_json', 'json'],
  ['enabled', 'boolean'],
  ['hooks_json', 'json'],
  ['capabilities_json', 'json'],
  ['quota_json', 'json'],
  ['revision', 'integer'],
  ['created_at', 'time'],
  ['updated_at', 'time'],
]);

/** The values of a binding in {@link bindingColumns} order. */
export function bindingValues(binding: MemoryBinding): unknown[] {
  return [
    binding.id,
    binding.companyId,
    binding.key,
    binding.providerId,
    JSON.stringify(binding.config),
    binding.enabled ? 1 : 0,
    JSON.stringify(binding.hooks),
    JSON.stringify(binding.capabilities),
    jsonOrNull(binding.quota),
    binding.revision,
    binding.createdAt,
    binding.updatedAt,
  ];
}

/** A binding row back as the binding. */
export function rowToBinding(row: StoreRow, codec: StoreRowCodec): MemoryBinding {
  const quota = codec.readJson(row.quota_json) as MemoryBinding['quota'];
  return {
    id: String(row.id),
    companyId: String(row.company_id),
    key: String(row.key),
    providerId: String(row.provider_id),
    config: (codec.readJson(row.config_json) as MemoryBinding['config'] | undefined) ?? {},
    enabled: flag(row.enabled),
    hooks: (codec.readJson(row.hooks_json) as MemoryBinding['hooks'] | undefined) ?? {
      postRunCapture: false,
      issueCommentCapture: false,
      issueDocumentCapture: false,
    },
    capabilities: (codec.readJson(row.capabilities_json) as MemoryBinding['capabilities'] | undefined) ?? {},
    ...(quota === undefined ? {} : { quota }),
    revision: Number(row.revision),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

/** A binding target row back as the target. */
export function rowToTarget(row: StoreRow): MemoryBindingTarget {
  return {
    companyId: String(row.company_id),
    targetType: row.target_type as MemoryBindingTargetType,
    targetId: String(row.target_id),
    bindingId: String(row.binding_id),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

/** The columns of `memory_activity`; {@link activityValues} follows their order. */
export const activityColumns = storeColumns([
  ['id', 'text'],
  ['company_id', 'text'],
  ['actor_kind', 'text'],
  ['actor_id', 'text'],
  ['action', 'text'],
  ['subject_type', 'text'],
  ['subject_id', 'text'],
  ['before_json', 'json'],
  ['after_json', 'json'],
  ['created_at', 'time'],
]);

/** The values of an activity entry in {@link activityColumns} order. */
export function activityValues(entry: MemoryActivityEntry): unknown[] {
  return [
    entry.id,
    entry.companyId,
    entry.actor.kind,
    entry.actor.id,
    entry.action,
    entry.subjectType,
    entry.subjectId,
    jsonOrNull(entry.before),
    jsonOrNull(entry.after),
    entry.createdAt,
  ];
}

/** An activity row back as the entry. */
export function rowToActivity(row: StoreRow, codec: StoreRowCodec): MemoryActivityEntry {
  return {
    id: String(row.id),
    companyId: String(row.company_id),
    actor: { kind: row.actor_kind as MemoryActorKind, id: String(row.actor_id) },
    action: row.action as MemoryActivityAction,
    subjectType: row.subject_type as MemoryActivityEntry['subjectType'],
    subjectId: String(row.subject_id),
    before: (codec.readJson(row.before_json) as MemoryActivityEntry['before'] | undefined) ?? null,
    after: (codec.readJson(row.after_json) as MemoryActivityEntry['after'] | undefined) ?? null,
    createdAt: time(row.created_at),
  };
}
