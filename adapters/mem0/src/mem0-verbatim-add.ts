import { createHash } from 'node:crypto';
import {
  stableStringify,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemoryUsage,
} from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0MaximumPageSize, mem0PageSchema, mem0StoredAddSchema } from './mem0-api-schemas';
import { qualifiedEntityId } from './mem0-entity-id';
import { toMemoryHandle } from './mem0-handle';
import { toMem0EntityIds, type Mem0EntityIds } from './mem0-scope-mapping';

/** The most getAll pages read to find the memories a deduplicated add did not return. */
const maximumLookupPages = 10;

/**
 * The entity ids of a verbatim write (`infer: false`). mem0 deduplicates exact repeats on
 * direct import within one set of entity ids, not within the metadata the adapter filters
 * on, so the run id carries a digest of the whole stored metadata (scope, caller metadata,
 * source, summary): two records collapse into one memory only when they are the same record
 * in the same scope. Without it, the same text under two projects would become one memory
 * holding the first project's metadata. The company prefix stays, so the id is still checked
 * as the company's; reads never filter on it.
 */
export function toVerbatimEntityIds(scope: MemoryScope, metadata: Record<string, unknown>): Mem0EntityIds {
  const writeKey = createHash('sha256').update(stableStringify(metadata)).digest('base64url').slice(0, 22);
  const run = scope.runId ?? scope.sessionKey ?? '';
  return { ...toMem0EntityIds(scope), runId: qualifiedEntityId(scope.companyId, `${run}#${writeKey}`) };
}

/** What a verbatim add stored: a handle per text (undefined where it could not be proven), and the usage. */
export interface VerbatimAddResult {
  /** One entry per text, in order; undefined when mem0 neither returned nor kept a memory of it. */
  handles: Array<MemoryRecordHandle | undefined>;
  /** One entry per mem0 call. */
  usage: MemoryUsage[];
}

/**
 * Reads the memories of one write key (app id and run id) and returns the id of each
 * wanted text found there: the memories an add deduplicated against.
 */
async function findStored(context: Mem0AdapterContext, entityIds: Mem0EntityIds, wanted: Set<string>, usage: MemoryUsage[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const filters = { AND: [{ app_id: entityIds.appId }, { run_id: entityIds.runId }] };
  for (let page = 1; page <= maximumLookupPages && found.size < wanted.size; page += 1) {
    const { value, usage: callUsage } = await context.call({ operation: 'upsertRecords (getAll, deduplicated records)' }, mem0PageSchema, (client) =>
      client.getAll({ filters, page, pageSize: mem0MaximumPageSize }),
    );
    usage.push(callUsage);
    for (const memory of value.results) {
      // The run id is the write key; the app id and text are checked again, as on every read.
      if (memory.appId === entityIds.appId && wanted.has(memory.memory) && !found.has(memory.memory)) found.set(memory.memory, memory.id);
    }
    if (value.next === null || value.next === undefined) break;
  }
  return found;
}

/**
 * Matches an add's results to the texts sent: by text (a repeated text shares its memory),
 * or by position when every message has a result and the texts do not all match (a result
 * without its text, or text mem0 normalised). A text left without a result gets no handle
 * here; the memories are already stored, so nothing is thrown.
 */
function placeResults(texts: string[], results: Array<{ id: string; data?: { memory: string } | null | undefined }>): Array<MemoryRecordHandle | undefined> {
  const byText = new Map<string, string[]>();
  for (const result of results) {
    const text = result.data?.memory;
    if (typeof text === 'string') byText.set(text, [...(byText.get(text) ?? []), result.id]);
  }
  const placed = new Map<string, string>();
  const handles = texts.map((text) => {
    const id = byText.get(text)?.shift() ?? placed.get(text);
    if (id === undefined) return undefined;
    placed.set(text, id);
    return toMemoryHandle(id);
  });
  const unplaced = [...byText.values()].flat().length + results.filter((result) => typeof result.data?.memory !== 'string').length;
  if (unplaced > 0 && results.length === texts.length) return results.map((result) => toMemoryHandle(result.id));
  return handles;
}

/**
 * Stores texts verbatim: `add` with `infer: false`, one user message per text, all under
 * one metadata. mem0 answers with the memories it stored; an exact repeat of a memory
 * that already holds the same entity ids is not stored again and not returned (a retried
 * add after a lost response, or the same record twice). Results are matched to texts by
 * their text (see `placeResults`); a text without a result takes the memory it repeats,
 * found with one getAll on the write key. A text that is in neither gets no handle (the
 * caller reports it); nothing is thrown once mem0 has answered, since records may be stored.
 */
export async function addVerbatim(
  context: Mem0AdapterContext,
  entityIds: Mem0EntityIds,
  texts: string[],
  metadata: Record<string, unknown>,
  operation: string,
): Promise<VerbatimAddResult> {
  const { value, usage } = await context.call({ operation: `${operation} (add, infer false)`, repeatable: false }, mem0StoredAddSchema, (client) =>
    client.add(
      texts.map((text) => ({ role: 'user' as const, content: text })),
      { ...entityIds, metadata, infer: false },
    ),
  );
  const allUsage = [usage];
  const handles = placeResults(texts, value.results);
  const missing = new Set(texts.filter((_, index) => handles[index] === undefined));
  if (missing.size === 0) return { handles, usage: allUsage };
  const found = await findStored(context, entityIds, missing, allUsage);
  return {
    handles: handles.map((handle, index) => handle ?? (found.has(texts[index] as string) ? toMemoryHandle(found.get(texts[index] as string) as string) : undefined)),
    usage: allUsage,
  };
}
