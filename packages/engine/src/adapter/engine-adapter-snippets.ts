import type { MemoryRecordHandle, MemorySnippet, MemorySourceRef } from '@memplane/core';
import type { ItemRow } from '../store/engine-store-rows';
import { toMemoryScope } from './engine-adapter-scope';

/** The handle of an item. */
export function handleOf(key: string, item: Pick<ItemRow, 'id'>): MemoryRecordHandle {
  return { providerKey: key, providerRecordId: item.id };
}

/** An item as the contract shows it: text, summary, metadata with the taxonomy fields, source, scope, times. */
export function toSnippet(key: string, item: ItemRow, score?: number): MemorySnippet {
  return {
    handle: handleOf(key, item),
    text: item.text,
    ...(score === undefined ? {} : { score }),
    ...(item.summary === undefined ? {} : { summary: item.summary }),
    ...(item.origin === undefined || item.origin === null ? {} : { source: structuredClone(item.origin) as unknown as MemorySourceRef }),
    metadata: structuredClone(item.metadata) as Record<string, unknown>,
    scope: toMemoryScope(item.scope),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
