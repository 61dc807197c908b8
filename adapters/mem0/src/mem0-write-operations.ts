import {
  MemoryError,
  stableStringify,
  type MemoryRecordFailure,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { assertNoReservedKeys, toStoredMetadata } from './mem0-metadata';
import { addVerbatim, toVerbatimEntityIds } from './mem0-verbatim-add';

/** The most messages one `add` carries. mem0 stores one memory per message when `infer` is false. */
export const maximumMessagesPerAdd = 100;

/** The failure of a record mem0 answered for without a memory, and none was found on its write key. */
const unprovenWrite = {
  code: 'MEMORY_INVALID_RESPONSE',
  message: 'mem0 returned no memory for this record and none was found under its write key; it may not be stored. Writing it again is safe.',
  isRetryable: true,
} as const;

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

/**
 * `upsertRecords`: `add` with `infer: false`, so each record is stored as written. Records
 * that share their stored metadata go in one `add` (at most 100), under entity ids that
 * carry the digest of that metadata (see `toVerbatimEntityIds`). When a later `add` fails,
 * its records become `failures`, because the earlier ones are already stored; a failure of
 * the first is thrown, since nothing was written.
 *
 * Idempotent where mem0 deduplicates: writing the same records again (a retry after a lost
 * response) stores nothing new and returns the handles of the memories already there. A
 * record mem0 neither returned nor kept becomes a retryable failure, never a silent success.
 */
export async function upsertMem0Records(context: Mem0AdapterContext, request: MemoryRecordWriteRequest): Promise<MemoryRecordWriteResult> {
  request.records.forEach((record, index) => assertNoReservedKeys(record.metadata, `records.${index}.metadata`, 'upsertRecords request'));
  const records: MemoryRecordHandle[] = [];
  const failures: MemoryRecordFailure[] = [];
  const usage: MemoryUsage[] = [];
  for (const group of groupRecords(request)) {
    try {
      const written = await addVerbatim(context, toVerbatimEntityIds(request.scope, group.metadata), group.texts, group.metadata, 'upsertRecords');
      usage.push(...written.usage);
      written.handles.forEach((handle, position) => {
        if (handle !== undefined) records.push(handle);
        else failures.push({ index: group.firstIndex + position, ...unprovenWrite });
      });
    } catch (error) {
      if (group.firstIndex === 0 || !MemoryError.isInstance(error)) throw error;
      group.texts.forEach((_, position) =>
        failures.push({ index: group.firstIndex + position, code: error.code, message: error.message, isRetryable: error.isRetryable }),
      );
    }
  }
  return failures.length === 0 ? { records, usage } : { records, failures, usage };
}
