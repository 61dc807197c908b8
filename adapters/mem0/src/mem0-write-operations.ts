import {
  MemoryError,
  MemoryInvalidResponseError,
  stableStringify,
  type MemoryRecordFailure,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0StoredAddSchema } from './mem0-api-schemas';
import { toMemoryHandle } from './mem0-handle';
import { assertNoReservedKeys, toStoredMetadata } from './mem0-metadata';
import { toMem0EntityIds, type Mem0EntityIds } from './mem0-scope-mapping';

/** The most messages one `add` carries. mem0 stores one memory per message when `infer` is false. */
export const maximumMessagesPerAdd = 100;

/** Records that share their stored metadata, written by one `add`. */
interface AddGroup {
  firstIndex: number;
  texts: string[];
  metadata: Record<string, unknown>;
}

function groupRecords(request: MemoryRecordWriteRequest): AddGroup[] {
  const groups: AddGroup[] = [];
  let previousKey: string | undefined;
  request.records.forEach((record, index) => {
    const metadata = toStoredMetadata({ scope: request.scope, metadata: record.metadata, source: request.source, summary: record.summary });
    const key = stableStringify(metadata);
    const last = groups.at(-1);
    if (last !== undefined && key === previousKey && last.texts.length < maximumMessagesPerAdd) {
      last.texts.push(record.text);
    } else {
      groups.push({ firstIndex: index, texts: [record.text], metadata });
    }
    previousKey = key;
  });
  return groups;
}

/** Stores texts verbatim: `add` with `infer: false`, one message per record, all under one metadata. */
export async function addVerbatim(
  context: Mem0AdapterContext,
  entityIds: Mem0EntityIds,
  texts: string[],
  metadata: Record<string, unknown>,
  operation: string,
): Promise<{ handles: MemoryRecordHandle[]; usage: MemoryUsage }> {
  const { value, usage } = await context.call({ operation: `${operation} (add, infer false)`, repeatable: false }, mem0StoredAddSchema, (client) =>
    client.add(
      texts.map((text) => ({ role: 'user' as const, content: text })),
      { ...entityIds, metadata, infer: false },
    ),
  );
  if (value.results.length !== texts.length) {
    throw new MemoryInvalidResponseError({
      message: `mem0 stored ${value.results.length} memories for ${texts.length} messages.`,
      field: 'results',
    });
  }
  return { handles: value.results.map((result) => toMemoryHandle(result.id)), usage };
}

/**
 * `upsertRecords`: `add` with `infer: false`, so each record is stored as written. Records
 * that share their stored metadata go in one `add` (at most 100). When a later `add` fails,
 * its records become `failures`, because the earlier ones are already stored; a failure of
 * the first is thrown, since nothing was written.
 */
export async function upsertMem0Records(context: Mem0AdapterContext, request: MemoryRecordWriteRequest): Promise<MemoryRecordWriteResult> {
  request.records.forEach((record, index) => assertNoReservedKeys(record.metadata, `records.${index}.metadata`, 'upsertRecords request'));
  const entityIds = toMem0EntityIds(request.scope);
  const records: MemoryRecordHandle[] = [];
  const failures: MemoryRecordFailure[] = [];
  const usage: MemoryUsage[] = [];
  for (const group of groupRecords(request)) {
    try {
      const written = await addVerbatim(context, entityIds, group.texts, group.metadata, 'upsertRecords');
      records.push(...written.handles);
      usage.push(written.usage);
    } catch (error) {
      if (group.firstIndex === 0 || !MemoryError.isInstance(error)) throw error;
      group.texts.forEach((_, position) =>
        failures.push({ index: group.firstIndex + position, code: error.code, message: error.message, isRetryable: error.isRetryable }),
      );
    }
  }
  return failures.length === 0 ? { records, usage } : { records, failures, usage };
}
