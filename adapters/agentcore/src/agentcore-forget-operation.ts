import { BatchDeleteMemoryRecordsCommand, DeleteEventCommand, DeleteMemoryRecordCommand } from '@aws-sdk/client-bedrock-agentcore';
import {
  MemoryApiCallError,
  MemoryNotFoundError,
  type MemoryForgetResult,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import {
  agentCoreBatchOutcomeSchema,
  agentCoreDeleteEventSchema,
  agentCoreDeleteRecordSchema,
  agentCoreMaximumRecordsPerBatch,
} from './agentcore-api-schemas';
import { fetchEventInScope, fetchRecordInScope } from './agentcore-get-operations';
import { readHandle, type AgentCoreEventAddress } from './agentcore-handle';
import type { RequestedScope } from './agentcore-record-mapping';
import { encodeScope } from './agentcore-scope-mapping';
import { mapWithConcurrency } from './agentcore-concurrency';

/** How many handles forget checks at the same time. */
const lookupConcurrency = 4;

interface RecordToDelete {
  memoryRecordId: string;
  namespace: string | undefined;
  handle: MemoryRecordHandle;
}

async function ignoreMissing(call: () => Promise<{ usage: MemoryUsage }>, usage: MemoryUsage[]): Promise<void> {
  try {
    usage.push((await call()).usage);
  } catch (error) {
    if (!MemoryNotFoundError.isInstance(error)) throw error;
  }
}

async function deleteRecords(context: AgentCoreAdapterContext, records: RecordToDelete[], usage: MemoryUsage[]): Promise<void> {
  const namespaceOf = (record: RecordToDelete) =>
    context.sendNamespaceWithRecordCalls && record.namespace !== undefined ? { namespace: record.namespace } : {};
  const [only] = records;
  if (records.length === 1 && only !== undefined) {
    await ignoreMissing(
      () =>
        context.call({ operation: 'DeleteMemoryRecord', resourceId: only.handle.providerRecordId }, agentCoreDeleteRecordSchema, (abortSignal) =>
          context.client.send(new DeleteMemoryRecordCommand({ memoryId: context.memoryId, memoryRecordId: only.memoryRecordId, ...namespaceOf(only) }), { abortSignal }),
        ),
      usage,
    );
    return;
  }
  for (let start = 0; start < records.length; start += agentCoreMaximumRecordsPerBatch) {
    const batch = records.slice(start, start + agentCoreMaximumRecordsPerBatch);
    const { value, usage: batchUsage } = await context.call({ operation: 'BatchDeleteMemoryRecords' }, agentCoreBatchOutcomeSchema, (abortSignal) =>
      context.client.send(
        new BatchDeleteMemoryRecordsCommand({
          memoryId: context.memoryId,
          records: batch.map((record) => ({ memoryRecordId: record.memoryRecordId, ...namespaceOf(record) })),
        }),
        { abortSignal },
      ),
    );
    usage.push(batchUsage);
    // A record that is already gone is forgotten; any other per-record failure is an error.
    const failed = value.failedRecords.filter((outcome) => outcome.errorCode !== 404);
    if (failed.length > 0) {
      throw new MemoryApiCallError({
        message: `AgentCore did not delete ${failed.length} of ${batch.length} records: ${failed
          .map((outcome) => `${outcome.memoryRecordId ?? '?'} (${outcome.errorCode ?? '?'}: ${outcome.errorMessage ?? 'no reason given'})`)
          .join(', ')}. Forget is idempotent; retry it.`,
        url: 'BatchDeleteMemoryRecords',
        isRetryable: failed.every((outcome) => outcome.errorCode === undefined || outcome.errorCode === 429 || outcome.errorCode >= 500),
      });
    }
  }
}

async function deleteEvent(context: AgentCoreAdapterContext, address: AgentCoreEventAddress, handle: MemoryRecordHandle, usage: MemoryUsage[]): Promise<void> {
  await ignoreMissing(
    () =>
      context.call({ operation: 'DeleteEvent', resourceId: handle.providerRecordId }, agentCoreDeleteEventSchema, (abortSignal) =>
        context.client.send(new DeleteEventCommand({ memoryId: context.memoryId, ...address }), { abortSignal }),
      ),
    usage,
  );
}

/**
 * `forget`: every handle is first read (`GetMemoryRecord` or `GetEvent`) and checked against
 * the scope, because a handle is not a capability; then records in scope are deleted with
 * `DeleteMemoryRecord` (one) or `BatchDeleteMemoryRecords` (several, 100 per call) and events
 * with `DeleteEvent`. Missing, foreign and already forgotten handles are left alone without a
 * word, so forget reveals nothing about other scopes. Deleting an event does not delete the
 * records a strategy already extracted from it.
 */
export async function forgetAgentCoreRecords(
  context: AgentCoreAdapterContext,
  handles: MemoryRecordHandle[],
  scope: MemoryScope,
): Promise<MemoryForgetResult> {
  const requested: RequestedScope = { scope, encoded: encodeScope(scope) };
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  const records: RecordToDelete[] = [];
  const seen = new Set<string>();
  const unique = handles.filter((handle) => !seen.has(handle.providerRecordId) && seen.add(handle.providerRecordId));
  await mapWithConcurrency(unique, lookupConcurrency, async (handle) => {
    const target = readHandle(handle);
    if (target === undefined) {
      warnings.push({ type: 'other', message: `Skipped handle ${handle.providerRecordId}: it is not an AgentCore record or event handle.` });
      return;
    }
    if (target.kind === 'record') {
      const record = await fetchRecordInScope(context, target.memoryRecordId, handle, requested, usage);
      if (record !== undefined) records.push({ memoryRecordId: target.memoryRecordId, namespace: record.namespaces[0], handle });
      return;
    }
    const event = await fetchEventInScope(context, target, handle, requested, usage);
    if (event !== undefined) await deleteEvent(context, target, handle, usage);
  });
  if (records.length > 0) await deleteRecords(context, records, usage);
  return { usage, warnings };
}
