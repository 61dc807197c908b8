import { randomUUID } from 'node:crypto';
import { BatchCreateMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import {
  isRetryableStatus,
  MemoryError,
  type MemoryRecordFailure,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreBatchOutcomeSchema, agentCoreMaximumRecordsPerBatch } from './agentcore-api-schemas';
import { toRecordHandle } from './agentcore-handle';
import { maximumMetadataEntries, packProvenanceWithinLimit, type StoredProvenance } from './agentcore-provenance';
import { encodeScope, hashedScopeWarnings, toNamespace, toScopeMetadata } from './agentcore-scope-mapping';

/** Extra provenance a capture stores with its record. */
export type CaptureDetails = Pick<StoredProvenance, 'h' | 't' | 'pm'>;

interface RecordEntry {
  requestIdentifier: string;
  namespaces: string[];
  content: { text: string };
  timestamp: Date;
  metadata: Record<string, { stringValue: string }>;
}

interface BatchOutcome {
  handles: Map<number, MemoryRecordHandle>;
  failures: MemoryRecordFailure[];
  usage: MemoryUsage;
}

/** The core error code of a per-record AgentCore error code (an HTTP-like status). */
function failureCode(errorCode: number | undefined): string {
  if (errorCode === 429) return 'MEMORY_RATE_LIMITED';
  if (errorCode === 409) return 'MEMORY_CONFLICT';
  if (errorCode === 400) return 'MEMORY_VALIDATION';
  if (errorCode === 404) return 'MEMORY_NOT_FOUND';
  return 'MEMORY_API_CALL';
}

function requestIdentifier(index: number): string {
  return `r${index}`;
}

async function createBatch(
  context: AgentCoreAdapterContext,
  entries: RecordEntry[],
  firstIndex: number,
): Promise<BatchOutcome> {
  // One client token for every attempt: a retried batch whose first attempt did reach
  // AgentCore is recognised as the same request instead of creating the records twice.
  const clientToken = randomUUID();
  const { value, usage } = await context.call({ operation: 'BatchCreateMemoryRecords' }, agentCoreBatchOutcomeSchema, (abortSignal) =>
    context.client.send(new BatchCreateMemoryRecordsCommand({ memoryId: context.memoryId, records: entries, clientToken }), { abortSignal }),
  );
  const outcome: BatchOutcome = { handles: new Map(), failures: [], usage };
  const indexOf = new Map(entries.map((entry, position) => [entry.requestIdentifier, firstIndex + position]));
  for (const succeeded of value.successfulRecords) {
    const index = succeeded.requestIdentifier === undefined ? undefined : indexOf.get(succeeded.requestIdentifier);
    if (index !== undefined && succeeded.memoryRecordId !== undefined && succeeded.memoryRecordId !== '') {
      outcome.handles.set(index, toRecordHandle(succeeded.memoryRecordId));
    }
  }
  for (const failed of value.failedRecords) {
    const index = failed.requestIdentifier === undefined ? undefined : indexOf.get(failed.requestIdentifier);
    if (index === undefined || outcome.handles.has(index)) continue;
    outcome.failures.push({
      index,
      code: failureCode(failed.errorCode),
      message: `AgentCore rejected the record${failed.errorCode === undefined ? '' : ` (${failed.errorCode})`}: ${failed.errorMessage ?? 'no reason given'}`,
      isRetryable: isRetryableStatus(failed.errorCode),
    });
  }
  // A record AgentCore reported on in neither list is a failure, never a silent success.
  for (const index of indexOf.values()) {
    if (!outcome.handles.has(index) && !outcome.failures.some((failure) => failure.index === index)) {
      outcome.failures.push({ index, code: 'MEMORY_INVALID_RESPONSE', message: 'AgentCore did not report on this record.', isRetryable: true });
    }
  }
  return outcome;
}

/**
 * Writes curated records with `BatchCreateMemoryRecords`, in batches of at most 100, each
 * record under the scope's namespace with the scope fields and packed provenance as metadata.
 * `requestIdentifier` (`r<index>`) ties every per-record outcome back to its request index.
 * Records AgentCore rejects inside its 201 become `failures`; when a later batch fails as a
 * whole its records become failures too, because the earlier batches are already written.
 * A failure of the first batch is thrown.
 */
export async function upsertAgentCoreRecords(
  context: AgentCoreAdapterContext,
  request: MemoryRecordWriteRequest,
  details: CaptureDetails = {},
): Promise<MemoryRecordWriteResult> {
  const encoded = encodeScope(request.scope);
  const namespace = toNamespace(encoded);
  const scopeMetadata = toScopeMetadata(encoded);
  const available = maximumMetadataEntries - Object.keys(scopeMetadata).length;
  const warnings: MemoryWarning[] = hashedScopeWarnings(request.scope, encoded);
  const timestamp = new Date();
  const entries: RecordEntry[] = request.records.map((record, index) => {
    const provenance: StoredProvenance = { ...details };
    if (request.source !== undefined) provenance.s = request.source;
    if (record.metadata !== undefined) provenance.m = record.metadata;
    if (record.summary !== undefined) provenance.y = record.summary;
    const packed = Object.keys(provenance).length === 0 ? {} : packProvenanceWithinLimit(provenance, available, `records.${index}`, warnings);
    return {
      requestIdentifier: requestIdentifier(index),
      namespaces: [namespace],
      content: { text: record.text },
      timestamp,
      metadata: { ...scopeMetadata, ...packed },
    };
  });
  const handles = new Map<number, MemoryRecordHandle>();
  const failures: MemoryRecordFailure[] = [];
  const usage: MemoryUsage[] = [];
  for (let start = 0; start < entries.length; start += agentCoreMaximumRecordsPerBatch) {
    const batch = entries.slice(start, start + agentCoreMaximumRecordsPerBatch);
    try {
      const outcome = await createBatch(context, batch, start);
      for (const [index, handle] of outcome.handles) handles.set(index, handle);
      failures.push(...outcome.failures);
      usage.push(outcome.usage);
    } catch (error) {
      if (start === 0 || !MemoryError.isInstance(error)) throw error;
      batch.forEach((_, position) =>
        failures.push({ index: start + position, code: error.code, message: error.message, isRetryable: error.isRetryable }),
      );
    }
  }
  const records = [...handles.entries()].sort(([left], [right]) => left - right).map(([, handle]) => handle);
  const result: MemoryRecordWriteResult = { records, usage, warnings };
  if (failures.length > 0) result.failures = failures.sort((left, right) => left.index - right.index);
  return result;
}
