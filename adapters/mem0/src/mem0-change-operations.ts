import {
  MemoryNotFoundError,
  type MemoryCorrectionPatch,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0MaximumBatchDelete, mem0MaximumPageSize, mem0MemorySchema, mem0MessageSchema, mem0PageSchema } from './mem0-api-schemas';
import { isMem0MemoryId, readMemoryId, toMemoryHandle } from './mem0-handle';
import { assertNoReservedKeys, mergeStoredMetadata } from './mem0-metadata';
import { toReadFilters } from './mem0-read-operations';
import { findMem0ScopeViolation } from './mem0-record-mapping';

function chunks<Item>(items: Item[], size: number): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Which of the ids are memories inside the scope: one `getAll` per 200 ids, filtered on
 * `memory_ids` and the scope, then checked again by the adapter. A handle is not a
 * capability, so nothing outside the scope is ever deleted.
 */
async function findInScope(context: Mem0AdapterContext, memoryIds: string[], scope: MemoryScope, usage: MemoryUsage[]): Promise<string[]> {
  const found: string[] = [];
  for (const batch of chunks(memoryIds, mem0MaximumPageSize)) {
    const { value, usage: callUsage } = await context.call({ operation: 'forget (getAll by memory_ids)' }, mem0PageSchema, (client) =>
      client.getAll({ filters: toReadFilters(scope, undefined, [{ memory_ids: batch }]), page: 1, pageSize: batch.length }),
    );
    usage.push(callUsage);
    const wanted = new Set(batch);
    found.push(...value.results.filter((memory) => wanted.has(memory.id) && findMem0ScopeViolation(memory, scope) === undefined).map((memory) => memory.id));
  }
  return found;
}

/**
 * `forget`: the handles' memories inside the scope are deleted, one with `delete`, more with
 * `batchDelete` (at most 1000 per call). Deletes are immediate hard deletes. Unknown,
 * foreign and already forgotten handles are left alone without a word, so forget never
 * reveals what exists elsewhere. `deleteAll` and entity deletes are never used: they are
 * asynchronous, and `deleteUsers()` without arguments deletes every entity of the project.
 */
export async function forgetMem0Memories(context: Mem0AdapterContext, handles: MemoryRecordHandle[], scope: MemoryScope): Promise<MemoryForgetResult> {
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  const memoryIds = new Set<string>();
  for (const handle of handles) {
    const memoryId = readMemoryId(handle);
    if (memoryId === undefined || !isMem0MemoryId(memoryId)) {
      warnings.push({ type: 'other', message: `Skipped handle ${handle.providerRecordId}: it does not name a mem0 memory.` });
      continue;
    }
    memoryIds.add(memoryId);
  }
  if (memoryIds.size === 0) return { usage, warnings };
  const doomed = await findInScope(context, [...memoryIds], scope, usage);
  for (const batch of chunks(doomed, mem0MaximumBatchDelete)) {
    if (batch.length === 1) {
      const [memoryId] = batch as [string];
      try {
        const { usage: callUsage } = await context.call({ operation: 'forget (delete)', resourceId: toMemoryHandle(memoryId).providerRecordId }, mem0MessageSchema, (client) =>
          client.delete(memoryId),
        );
        usage.push(callUsage);
      } catch (error) {
        if (!MemoryNotFoundError.isInstance(error)) throw error;
      }
      continue;
    }
    const { usage: callUsage } = await context.call({ operation: 'forget (batchDelete)' }, mem0MessageSchema, (client) => client.batchDelete(batch));
    usage.push(callUsage);
  }
  return { usage, warnings };
}

/**
 * `correct`: `get` first (the scope check, and the stored metadata to merge into), then
 * `update`, which changes the memory in place; mem0 keeps the old text in its history.
 * The SDK types `update` as returning a list, but mem0 returns the one memory, which is
 * what is validated. Named metadata keys change, the rest stay; the reason is kept in the
 * metadata, where mem0's history records it.
 */
export async function correctMem0Memory(
  context: Mem0AdapterContext,
  handle: MemoryRecordHandle,
  patch: MemoryCorrectionPatch,
  scope: MemoryScope,
): Promise<MemoryCorrectionResult> {
  assertNoReservedKeys(patch.metadata, 'patch.metadata', 'correction patch');
  const memoryId = readMemoryId(handle);
  if (memoryId === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  const resourceId = handle.providerRecordId;
  const { value: current, usage: readUsage } = await context.call({ operation: 'correct (get)', resourceId }, mem0MemorySchema, (client) => client.get(memoryId));
  if (findMem0ScopeViolation(current, scope) !== undefined) throw new MemoryNotFoundError({ resourceId });
  const metadata = mergeStoredMetadata(current.metadata ?? {}, {
    ...(patch.metadata === undefined ? {} : { metadata: patch.metadata }),
    ...(patch.summary === undefined ? {} : { summary: patch.summary }),
  });
  if (patch.reason !== undefined) metadata.memplane_correction_reason = patch.reason;
  const { value: updated, usage: updateUsage } = await context.call({ operation: 'correct (update)', resourceId }, mem0MemorySchema, (client) =>
    client.update(memoryId, { ...(patch.text === undefined ? {} : { text: patch.text }), metadata }),
  );
  return { record: toMemoryHandle(updated.id), usage: [readUsage, updateUsage] };
}
