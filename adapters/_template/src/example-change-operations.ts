import {
  MemoryNotFoundError,
  MemoryScopeViolationError,
  type MemoryCorrectionPatch,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { ExampleAdapterContext } from './example-adapter-context';
import { exampleDeleteRecordResponseSchema, exampleRecordResponseSchema } from './example-api-schemas';
import { readRecordId, toRecordHandle } from './example-handle';
import { findExampleScopeViolation } from './example-record-mapping';
import { narrowsBelowCompany } from './example-scope-mapping';

/**
 * Whether the record is inside the scope. The API only knows tenants on
 * `DELETE`/`PATCH`, so a scope narrower than the company costs one `GET` first.
 */
async function isInScope(
  context: ExampleAdapterContext,
  handle: MemoryRecordHandle,
  recordId: string,
  scope: MemoryScope,
  usage: MemoryUsage[],
): Promise<boolean> {
  if (!narrowsBelowCompany(scope)) return true;
  try {
    const read = await context.call(
      { operation: 'get', resourceId: handle.providerRecordId },
      exampleRecordResponseSchema,
      (signal) => context.client.getRecord(recordId, scope.companyId, signal),
    );
    usage.push(read.usage);
    return findExampleScopeViolation(read.value.record, scope) === undefined;
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return false;
    throw error;
  }
}

/**
 * `forget`: `DELETE /v1/records/{id}` per handle. A missing record, or one outside the
 * scope, is left alone without a word, so forget never reveals what exists elsewhere.
 */
export async function forgetExampleRecords(
  context: ExampleAdapterContext,
  handles: MemoryRecordHandle[],
  scope: MemoryScope,
): Promise<MemoryForgetResult> {
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  for (const handle of handles) {
    const recordId = readRecordId(handle);
    if (recordId === undefined) {
      warnings.push({
        type: 'other',
        message: `Skipped handle ${handle.providerRecordId}: it is not an Example record handle.`,
      });
      continue;
    }
    if (!(await isInScope(context, handle, recordId, scope, usage))) continue;
    try {
      const deleted = await context.call(
        { operation: 'forget', resourceId: handle.providerRecordId },
        exampleDeleteRecordResponseSchema,
        (signal) => context.client.deleteRecord(recordId, scope.companyId, signal),
      );
      usage.push(deleted.usage);
    } catch (error) {
      if (!MemoryNotFoundError.isInstance(error)) throw error;
    }
  }
  return { usage, warnings };
}

/**
 * `correct`: `PATCH /v1/records/{id}`, which updates the record in place and merges
 * metadata keys. The SDK has no method for it, so it goes through the SDK's own
 * authenticated `request`.
 */
export async function correctExampleRecord(
  context: ExampleAdapterContext,
  handle: MemoryRecordHandle,
  patch: MemoryCorrectionPatch,
  scope: MemoryScope,
): Promise<MemoryCorrectionResult> {
  const recordId = readRecordId(handle);
  const usage: MemoryUsage[] = [];
  if (recordId === undefined || !(await isInScope(context, handle, recordId, scope, usage))) {
    throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
  }
  const { value, usage: patchUsage } = await context.call(
    { operation: 'correct', resourceId: handle.providerRecordId },
    exampleRecordResponseSchema,
    (signal) =>
      context.client.request({
        method: 'PATCH',
        path: `/v1/records/${encodeURIComponent(recordId)}`,
        query: { tenant: scope.companyId },
        body: { text: patch.text, summary: patch.summary, metadata: patch.metadata, reason: patch.reason },
        signal,
      }),
  );
  usage.push(patchUsage);
  const violation = findExampleScopeViolation(value.record, scope);
  if (violation !== undefined)
    throw new MemoryScopeViolationError({ message: `Correcting ${handle.providerRecordId}: ${violation}.` });
  return { record: toRecordHandle(value.record.id), usage };
}
