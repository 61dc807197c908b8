import {
  MemoryApiCallError,
  MemoryError,
  MemoryInvalidResponseError,
  type MemoryCaptureRequest,
  type MemoryCaptureResult,
  type MemoryRecordFailure,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { ExampleAdapterContext } from './example-adapter-context';
import {
  exampleCreateRecordsResponseSchema,
  exampleMaximumRecordsPerCall,
  type ExampleRecordInput,
} from './example-api-schemas';
import { toRecordHandle } from './example-handle';
import { toExampleScope } from './example-scope-mapping';

/** The core error codes of the API's per-record rejection codes. Unknown codes map to `MEMORY_API_CALL`. */
const rejectionCodes: Record<string, { code: string; isRetryable: boolean }> = {
  invalid_record: { code: 'MEMORY_VALIDATION', isRetryable: false },
  quota_exceeded: { code: 'MEMORY_RATE_LIMITED', isRetryable: true },
  conflict: { code: 'MEMORY_CONFLICT', isRetryable: true },
};

interface BatchOutcome {
  records: MemoryRecordHandle[];
  failures: MemoryRecordFailure[];
  usage: MemoryUsage;
}

async function createBatch(
  context: ExampleAdapterContext,
  tenant: string,
  records: ExampleRecordInput[],
  firstIndex: number,
): Promise<BatchOutcome> {
  const { value, usage } = await context.call(
    { operation: 'upsertRecords' },
    exampleCreateRecordsResponseSchema,
    (signal) => context.client.createRecords({ tenant, records }, signal),
  );
  if (value.results.length !== records.length) {
    throw new MemoryInvalidResponseError({
      message: `The Example API returned ${value.results.length} results for ${records.length} records.`,
      field: 'results',
    });
  }
  const outcome: BatchOutcome = { records: [], failures: [], usage };
  value.results.forEach((result, position) => {
    if (result.status === 'created') {
      outcome.records.push(toRecordHandle(result.record.id));
      return;
    }
    // Only the table's own keys: a code such as `constructor` from the API must not reach the object's prototype.
    const mapped = Object.hasOwn(rejectionCodes, result.error.code) ? rejectionCodes[result.error.code]! : { code: 'MEMORY_API_CALL', isRetryable: false };
    outcome.failures.push({ index: firstIndex + position, message: result.error.message, ...mapped });
  });
  return outcome;
}

/**
 * `upsertRecords`: `POST /v1/records` in batches of at most 100. Records the API rejects
 * become `failures`. When a later batch fails as a whole, its records become failures too,
 * because the earlier batches are already written; a failure of the first batch is thrown.
 */
export async function upsertExampleRecords(
  context: ExampleAdapterContext,
  request: MemoryRecordWriteRequest,
): Promise<MemoryRecordWriteResult> {
  const { tenant, labels } = toExampleScope(request.scope);
  const inputs: ExampleRecordInput[] = request.records.map((record) => ({
    text: record.text,
    ...(record.summary === undefined ? {} : { summary: record.summary }),
    labels,
    ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
    ...(request.source === undefined ? {} : { source: { ...request.source } }),
  }));
  const result: Required<Pick<MemoryRecordWriteResult, 'records' | 'failures' | 'usage'>> = {
    records: [],
    failures: [],
    usage: [],
  };
  for (let start = 0; start < inputs.length; start += exampleMaximumRecordsPerCall) {
    const batch = inputs.slice(start, start + exampleMaximumRecordsPerCall);
    try {
      const outcome = await createBatch(context, tenant, batch, start);
      result.records.push(...outcome.records);
      result.failures.push(...outcome.failures);
      result.usage.push(outcome.usage);
    } catch (error) {
      if (start === 0 || !MemoryError.isInstance(error)) throw error;
      batch.forEach((_, position) =>
        result.failures.push({
          index: start + position,
          code: error.code,
          message: error.message,
          isRetryable: error.isRetryable,
        }),
      );
    }
  }
  return result.failures.length === 0 ? { records: result.records, usage: result.usage } : result;
}

function captureText(request: MemoryCaptureRequest, warnings: MemoryWarning[]): string {
  const { payload } = request;
  if (payload.text !== undefined && payload.text.trim() !== '') {
    if (payload.object !== undefined) {
      warnings.push({
        type: 'unsupported',
        feature: 'payload.object',
        details: 'The Example API stores text only; the object was not stored.',
      });
    }
    return payload.text;
  }
  warnings.push({
    type: 'compatibility',
    feature: 'payload.object',
    details: 'The Example API stores text only; the object was stored as JSON text.',
  });
  return JSON.stringify(payload.object);
}

/**
 * `capture`: the Example API does not extract memories, so the payload is stored as one
 * record, and a `capture_residue` capture says so in a warning.
 */
export async function captureExampleRecord(
  context: ExampleAdapterContext,
  request: MemoryCaptureRequest,
): Promise<MemoryCaptureResult> {
  const warnings: MemoryWarning[] = [];
  if ((request.mode ?? 'capture_residue') === 'capture_residue') {
    warnings.push({
      type: 'compatibility',
      feature: 'capture_residue',
      details: 'The Example API does not extract memories; the payload was stored as one record.',
    });
  }
  if (request.payload.mimeType !== undefined && !request.payload.mimeType.startsWith('text/')) {
    warnings.push({
      type: 'compatibility',
      feature: 'payload.mimeType',
      details: `Stored as text; the Example API has no ${request.payload.mimeType} support.`,
    });
  }
  if (request.payload.metadata !== undefined) {
    warnings.push({
      type: 'unsupported',
      feature: 'payload.metadata',
      details: 'Only the request metadata is stored.',
    });
  }
  const text = captureText(request, warnings);
  const written = await upsertExampleRecords(context, {
    bindingKey: request.bindingKey,
    scope: request.scope,
    source: request.source,
    records: [{ text, ...(request.metadata === undefined ? {} : { metadata: request.metadata }) }],
  });
  const [failure] = written.failures ?? [];
  if (failure !== undefined) {
    throw new MemoryApiCallError({
      message: `The Example API rejected the capture: ${failure.message}`,
      isRetryable: failure.isRetryable ?? false,
    });
  }
  return { records: written.records ?? [], usage: written.usage ?? [], warnings };
}
