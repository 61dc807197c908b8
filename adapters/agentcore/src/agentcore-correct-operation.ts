import { BatchUpdateMemoryRecordsCommand, type MemoryRecordMetadataValue } from '@aws-sdk/client-bedrock-agentcore';
import {
  createApiCallError,
  MemoryNotFoundError,
  MemoryValidationError,
  type MemoryCorrectionPatch,
  type MemoryCorrectionResult,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreBatchOutcomeSchema, type AgentCoreMetadata, type AgentCoreMetadataValue } from './agentcore-api-schemas';
import { fetchRecordInScope } from './agentcore-get-operations';
import { readHandle } from './agentcore-handle';
import {
  maximumMetadataEntries,
  packProvenanceWithinLimit,
  provenanceChunkKey,
  unpackProvenance,
  type StoredProvenance,
} from './agentcore-provenance';
import type { RequestedScope } from './agentcore-record-mapping';
import { encodeScope } from './agentcore-scope-mapping';

const chunkKeyPattern = new RegExp(`^${provenanceChunkKey(0).slice(0, -1).replace('.', '\\.')}\\d$`);

/** A metadata value as it was read, sent back as the one union member it holds; anything else is dropped. */
function toWritableValue(value: AgentCoreMetadataValue | null | undefined): MemoryRecordMetadataValue | undefined {
  if (typeof value?.stringValue === 'string') return { stringValue: value.stringValue };
  if (Array.isArray(value?.stringListValue) && value.stringListValue.every((item) => typeof item === 'string')) {
    return { stringListValue: value.stringListValue as string[] };
  }
  if (typeof value?.numberValue === 'number') return { numberValue: value.numberValue };
  if (value?.dateTimeValue instanceof Date) return { dateTimeValue: value.dateTimeValue };
  return undefined;
}

/** The record's metadata without its provenance chunks: scope keys and keys others wrote stay as they are. */
function metadataWithoutProvenance(metadata: AgentCoreMetadata): Record<string, MemoryRecordMetadataValue> {
  const kept: Record<string, MemoryRecordMetadataValue> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    const writable = chunkKeyPattern.test(key) ? undefined : toWritableValue(value);
    if (writable !== undefined) kept[key] = writable;
  }
  return kept;
}

function correctedProvenance(metadata: AgentCoreMetadata, patch: MemoryCorrectionPatch, warnings: MemoryWarning[]): StoredProvenance {
  const stored = unpackProvenance(metadata);
  if (stored === 'unreadable') {
    warnings.push({ type: 'compatibility', feature: 'provenance', details: 'The stored provenance could not be read; the corrected record keeps only what the patch sets.' });
  }
  const provenance: StoredProvenance = stored === undefined || stored === 'unreadable' ? {} : { ...stored };
  if (patch.summary !== undefined) provenance.y = patch.summary;
  if (patch.metadata !== undefined) provenance.m = { ...provenance.m, ...patch.metadata };
  return provenance;
}

/**
 * `correct`: reads the record and checks it against the scope, then rewrites it in place with
 * `BatchUpdateMemoryRecordsCommand`: the new text, and the provenance with the patch's
 * summary and metadata keys merged in (keys the patch does not name stay). The whole metadata
 * map is sent, so it does not matter whether AgentCore merges or replaces it. AgentCore keeps
 * no version history, so the patch's `reason` is not stored. Event handles cannot be
 * corrected: events are immutable.
 */
export async function correctAgentCoreRecord(
  context: AgentCoreAdapterContext,
  handle: MemoryRecordHandle,
  patch: MemoryCorrectionPatch,
  scope: MemoryScope,
): Promise<MemoryCorrectionResult> {
  const target = readHandle(handle);
  if (target === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  if (target.kind === 'event') {
    throw new MemoryValidationError({
      target: 'correct handle',
      issues: [{ path: 'handle.providerRecordId', message: 'is a captured event; AgentCore events are immutable, only records can be corrected' }],
    });
  }
  const requested: RequestedScope = { scope, encoded: encodeScope(scope) };
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  const record = await fetchRecordInScope(context, target.memoryRecordId, handle, requested, usage);
  if (record === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  if (patch.reason !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'reason', details: 'AgentCore keeps no version history; the correction reason was not stored.' });
  }
  const kept = metadataWithoutProvenance(record.metadata);
  const provenance = correctedProvenance(record.metadata, patch, warnings);
  const packed =
    Object.keys(provenance).length === 0
      ? {}
      : packProvenanceWithinLimit(provenance, maximumMetadataEntries - Object.keys(kept).length, 'patch', warnings);
  const { value, usage: updateUsage } = await context.call(
    { operation: 'BatchUpdateMemoryRecords', resourceId: handle.providerRecordId },
    agentCoreBatchOutcomeSchema,
    (abortSignal) =>
      context.client.send(
        new BatchUpdateMemoryRecordsCommand({
          memoryId: context.memoryId,
          records: [
            {
              memoryRecordId: target.memoryRecordId,
              timestamp: new Date(),
              ...(patch.text === undefined ? {} : { content: { text: patch.text } }),
              metadata: { ...kept, ...packed },
            },
          ],
        }),
        { abortSignal },
      ),
  );
  usage.push(updateUsage);
  const [failed] = value.failedRecords;
  if (failed !== undefined) {
    if (failed.errorCode === 404) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
    throw createApiCallError({
      status: failed.errorCode ?? 500,
      url: 'BatchUpdateMemoryRecords',
      message: `AgentCore did not correct ${handle.providerRecordId}: ${failed.errorMessage ?? 'no reason given'}`,
    });
  }
  return { record: handle, usage, warnings };
}
