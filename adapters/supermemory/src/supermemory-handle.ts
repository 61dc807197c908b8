import type { MemoryRecordHandle } from '@memplane/core';

/** The provider key of the Supermemory adapter. Every handle it issues carries it. */
export const supermemoryProviderKey = 'supermemory';

/**
 * What a handle points at. Supermemory keeps two id spaces apart: documents (what `add`
 * creates; `documents.get/delete` take their ids) and memory entries (what search and the
 * memory list return; `memories.forget/updateMemory` take their ids). Mixing them up gives
 * 404s, so every handle says which kind it holds.
 */
export type SupermemoryRecordReference =
  | { kind: 'document'; documentId: string }
  | { kind: 'memory'; memoryId: string; recordKey: string | undefined };

/**
 * `doc:<documentId>` for documents; `mem:<recordKey>:<memoryId>` for memory entries. The
 * record key is the adapter's own `mp_key` metadata value, which lets a read find the entry
 * with one filtered list call (Supermemory has no get-by-id for memory entries). It is empty
 * for entries that carry no key.
 */
export function toSupermemoryHandle(reference: SupermemoryRecordReference): MemoryRecordHandle {
  const providerRecordId =
    reference.kind === 'document'
      ? `doc:${reference.documentId}`
      : `mem:${reference.recordKey ?? ''}:${reference.memoryId}`;
  return { providerKey: supermemoryProviderKey, providerRecordId };
}

/** The reference a handle holds, or undefined when it is not a handle of this adapter's form. */
export function readSupermemoryHandle(handle: MemoryRecordHandle): SupermemoryRecordReference | undefined {
  const id = handle.providerRecordId;
  if (id.startsWith('doc:')) {
    const documentId = id.slice(4);
    return documentId === '' ? undefined : { kind: 'document', documentId };
  }
  if (id.startsWith('mem:')) {
    const separator = id.indexOf(':', 4);
    if (separator === -1) return undefined;
    const recordKey = id.slice(4, separator);
    const memoryId = id.slice(separator + 1);
    if (memoryId === '') return undefined;
    return { kind: 'memory', memoryId, recordKey: recordKey === '' ? undefined : recordKey };
  }
  return undefined;
}

/** A job id taken apart. `signature` is empty on a bare document id. */
export interface SupermemoryJobReference {
  documentId: string;
  submittedAtMs: number | undefined;
  signature: string;
}

/**
 * The job id of a capture: `<documentId>@<submittedAt epoch ms>@<signature>`. The submission
 * time lets a poll tell "not visible yet" (Supermemory can 404 right after `add`) from "no
 * such job"; the signature (an HMAC over the container tag, the document id and the time)
 * makes that allowance apply only in the company that captured, so a job id read with another
 * company's scope is null like any other.
 */
export function toSupermemoryJobId(documentId: string, submittedAtMs: number, signature: string): string {
  return `${documentId}@${submittedAtMs}@${signature}`;
}

/** The parts of a job id; a bare document id is accepted too. */
export function readSupermemoryJobId(providerJobId: string): SupermemoryJobReference {
  const parts = providerJobId.split('@');
  const signature = parts.at(-1) ?? '';
  const time = Number(parts.at(-2));
  if (parts.length >= 3 && Number.isSafeInteger(time) && signature !== '') {
    return { documentId: parts.slice(0, -2).join('@'), submittedAtMs: time, signature };
  }
  return { documentId: providerJobId, submittedAtMs: undefined, signature: '' };
}
