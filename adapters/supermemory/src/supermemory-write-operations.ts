import {
  MemoryError,
  MemoryInvalidResponseError,
  MemoryValidationError,
  type MemoryCaptureRequest,
  type MemoryCaptureResult,
  type MemoryRecordFailure,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import {
  addDocumentResponseSchema,
  createMemoriesResponseSchema,
  maximumMemoriesPerCreate,
  maximumMemoryLength,
} from './supermemory-api-schemas';
import { toSupermemoryHandle, toSupermemoryJobId } from './supermemory-handle';
import { mapDocumentStatus } from './supermemory-job-status';
import { createMemories, type SupermemoryMemoryInput } from './supermemory-raw-endpoints';
import { createRecordKey, encodeRecordMetadata } from './supermemory-record-metadata';

interface PendingMemory {
  index: number;
  recordKey: string;
  input: SupermemoryMemoryInput;
}

async function createBatch(
  context: SupermemoryAdapterContext,
  containerTag: string,
  batch: PendingMemory[],
): Promise<{ handles: MemoryRecordHandle[]; usage: MemoryUsage }> {
  const { value, usage } = await context.call({ operation: 'upsertRecords' }, createMemoriesResponseSchema, (options) =>
    createMemories(context.client, { containerTag, memories: batch.map((pending) => pending.input) }, options),
  );
  if (value.memories.length !== batch.length) {
    throw new MemoryInvalidResponseError({
      message: `Supermemory created ${value.memories.length} memories for ${batch.length} inputs.`,
      field: 'memories',
    });
  }
  const handles = value.memories.map((memory, position) =>
    toSupermemoryHandle({ kind: 'memory', memoryId: memory.id, recordKey: batch[position]?.recordKey }),
  );
  return { handles, usage };
}

/**
 * `upsertRecords`: `POST /v4/memories` (through the SDK's `client.post`) in batches of at most
 * 100, into the company's container tag, each record with its scope, provenance and metadata
 * in flat metadata. Records over Supermemory's 10,000-character limit become failures and are
 * not sent. When a later batch fails as a whole, its records become failures too, because the
 * earlier batches are already written; a failure before anything was written is thrown.
 */
export async function upsertSupermemoryRecords(
  context: SupermemoryAdapterContext,
  request: MemoryRecordWriteRequest,
): Promise<MemoryRecordWriteResult> {
  const containerTag = context.containerTagOf(request.scope.companyId);
  const failures: MemoryRecordFailure[] = [];
  const pending: PendingMemory[] = [];
  request.records.forEach((record, index) => {
    if (record.text.length > maximumMemoryLength) {
      failures.push({
        index,
        code: 'MEMORY_VALIDATION',
        message: `Supermemory memories hold at most ${maximumMemoryLength} characters; this one has ${record.text.length}.`,
        isRetryable: false,
      });
      return;
    }
    const recordKey = createRecordKey();
    const metadata = encodeRecordMetadata({
      scope: request.scope,
      recordKey,
      origin: 'record',
      ...(request.source === undefined ? {} : { source: request.source }),
      ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
      ...(record.summary === undefined ? {} : { summary: record.summary }),
    });
    pending.push({ index, recordKey, input: { content: record.text, metadata } });
  });
  const written = new Map<number, MemoryRecordHandle>();
  const usage: MemoryUsage[] = [];
  for (let start = 0; start < pending.length; start += maximumMemoriesPerCreate) {
    const batch = pending.slice(start, start + maximumMemoriesPerCreate);
    try {
      const outcome = await createBatch(context, containerTag, batch);
      outcome.handles.forEach((handle, position) => written.set(batch[position]?.index ?? -1, handle));
      usage.push(outcome.usage);
    } catch (error) {
      if (written.size === 0 || !MemoryError.isInstance(error)) throw error;
      for (const item of batch) {
        failures.push({ index: item.index, code: error.code, message: error.message, isRetryable: error.isRetryable });
      }
    }
  }
  const records = [...written.entries()].sort(([left], [right]) => left - right).map(([, handle]) => handle);
  failures.sort((left, right) => left.index - right.index);
  return failures.length === 0 ? { records, usage } : { records, failures, usage };
}

function captureContent(request: MemoryCaptureRequest, warnings: MemoryWarning[]): string {
  const { payload } = request;
  if (payload.text !== undefined && payload.text.trim() !== '') {
    if (payload.object !== undefined) {
      warnings.push({ type: 'unsupported', feature: 'payload.object', details: 'Supermemory was sent the text; the object was not stored.' });
    }
    return payload.text;
  }
  warnings.push({ type: 'compatibility', feature: 'payload.object', details: 'Supermemory takes text content; the object was sent as JSON text.' });
  return JSON.stringify(payload.object);
}

/**
 * `capture`. The default `capture_residue` adds a document (`client.add`) to the company's
 * container: Supermemory extracts memories from it asynchronously, and the document's
 * processing is returned as an extraction job (its id is the document id). `capture_record`
 * writes the payload as one memory entry instead, searchable at once.
 */
export async function captureSupermemory(
  context: SupermemoryAdapterContext,
  request: MemoryCaptureRequest,
): Promise<MemoryCaptureResult> {
  const warnings: MemoryWarning[] = [];
  if (request.payload.mimeType !== undefined && !request.payload.mimeType.startsWith('text/')) {
    warnings.push({ type: 'compatibility', feature: 'payload.mimeType', details: `Sent as text; ${request.payload.mimeType} content is not uploaded as a file.` });
  }
  if (request.payload.metadata !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'payload.metadata', details: 'Only the request metadata is stored.' });
  }
  const content = captureContent(request, warnings);
  if ((request.mode ?? 'capture_residue') === 'capture_record') {
    if (content.length > maximumMemoryLength) {
      throw new MemoryValidationError({
        target: 'capture request',
        issues: [{ path: 'payload.text', message: `a capture_record capture holds at most ${maximumMemoryLength} characters in Supermemory` }],
      });
    }
    const written = await upsertSupermemoryRecords(context, {
      bindingKey: request.bindingKey,
      scope: request.scope,
      source: request.source,
      records: [{ text: content, ...(request.metadata === undefined ? {} : { metadata: request.metadata }) }],
    });
    return { records: written.records ?? [], usage: written.usage ?? [], warnings };
  }
  const submittedAtMs = context.now();
  const metadata = encodeRecordMetadata({
    scope: request.scope,
    recordKey: createRecordKey(),
    origin: 'capture',
    source: request.source,
    ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
    ...(request.hook === undefined ? {} : { hookKind: request.hook.hookKind }),
    submittedAtMs,
  });
  const containerTag = context.containerTagOf(request.scope.companyId);
  const { value, usage } = await context.call({ operation: 'capture' }, addDocumentResponseSchema, (options) =>
    context.client.add({ content, containerTag, metadata }, options),
  );
  const status = mapDocumentStatus(value.status);
  return {
    records: [toSupermemoryHandle({ kind: 'document', documentId: value.id })],
    jobs: [
      {
        providerJobId: toSupermemoryJobId(value.id, submittedAtMs, context.jobs.sign(containerTag, value.id, submittedAtMs)),
        status,
        ...(request.hook === undefined ? {} : { hookKind: request.hook.hookKind }),
        source: request.source,
        submittedAt: new Date(submittedAtMs).toISOString(),
      },
    ],
    usage: [usage],
    warnings,
  };
}
