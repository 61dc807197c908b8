import {
  createCursorCodec,
  defineMemoryAdapter,
  InvalidCursorError,
  MemoryNotFoundError,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
  type MemoryScope,
  type MemorySnippet,
} from '@memplane/core';
import { conversationTurnsOf, isMemoryKind } from '@memplane/rules';
import type { JsonValue } from '@memplane/core';
import { createMemoryEngine } from '../engine/create-memory-engine';
import type { MemoryEngineSettings } from '../engine/engine-settings';
import type { MemoryEngine } from '../engine/memory-engine';
import type { ItemKeyset } from '../store/engine-store';
import type { ItemRow } from '../store/engine-store-rows';
import { memoryScopeBoundaryFields, memoryScopeModelSchema, toScopeSelector, toScopeValues } from './engine-adapter-scope';
import { handleOf, toSnippet } from './engine-adapter-snippets';

/** The provider key of the engine adapter. */
export const engineAdapterKey = 'engine';

/** What the engine adapter can do: extraction inside capture, corrections, profiles and metadata filters. */
export const engineAdapterCapabilities: Readonly<MemoryAdapterCapabilities> = Object.freeze({
  profile: true,
  correction: true,
  multimodal: false,
  providerManagedExtraction: true,
  asyncExtraction: false,
  providerNativeBrowse: false,
  listExtractionJobs: false,
  retryExtractionJob: false,
  explain: false,
  metadataFilter: true,
  remoteOperations: [],
});

/** Settings of {@link createEngineAdapter}: the engine's, without the scope (the adapter brings the contract's). */
export interface EngineAdapterSettings extends Omit<MemoryEngineSettings, 'scope' | 'boundaryFields'> {
  /** Signs list cursors; use one secret across processes that serve the same store. Default: random per adapter. */
  readonly cursorSecret?: string | undefined;
}

/** Records per `list` page when the request sets no limit. */
const defaultListLimit = 50;
/** Items `profile` falls back to when the scope has no profile, preference, goal or constraint item. */
const profileFallbackSize = 10;
/** Metadata keys whose value picks the taxonomy kind of a curated record. */
const kindKey = 'kind';

function kindOf(metadata: Record<string, unknown> | undefined): ItemRow['kind'] | undefined {
  const kind = metadata?.[kindKey];
  return isMemoryKind(kind) ? kind : undefined;
}

/** A `MemoryAdapter` over an existing engine whose scope schema is the adapter's default model. */
export function engineAdapterOver(engine: MemoryEngine, settings: { cursorSecret?: string | undefined } = {}): MemoryAdapter {
  const codec = createCursorCodec(settings.cursorSecret === undefined ? {} : { secret: settings.cursorSecret });
  const key = engineAdapterKey;
  const ids = (handles: ReadonlyArray<{ providerRecordId: string }>) => handles.map((handle) => handle.providerRecordId);
  const itemsInScope = async (scope: MemoryScope, itemIds: readonly string[]) => engine.readItems(toScopeSelector(scope), itemIds);

  return defineMemoryAdapter({
    key,
    capabilities: { ...engineAdapterCapabilities, remoteOperations: [] },
    async capture(request) {
      const text = request.payload.text ?? JSON.stringify(request.payload.object ?? {});
      const metadata = (request.metadata ?? {}) as Record<string, JsonValue>;
      const origin = request.source as unknown as JsonValue;
      const scope = toScopeValues(request.scope);
      if (request.mode === 'capture_record') {
        const [item] = await engine.writeItems(scope, [{ text, metadata, origin, kind: kindOf(request.metadata) }]);
        return { records: item === undefined ? [] : [handleOf(key, item)] };
      }
      // An object of exactly `{ messages: [{ role, content }] }` (and no text) is a conversation: its turns keep their roles.
      const turns = request.payload.text === undefined || request.payload.text.trim() === '' ? conversationTurnsOf(request.payload.object) : undefined;
      const result = await engine.memorize(scope, turns === undefined ? { type: 'resource', content: text, metadata, origin } : { type: 'conversation', messages: turns, metadata, origin });
      return { records: [...result.itemIds, ...result.reinforcedItemIds].map((id) => ({ providerKey: key, providerRecordId: id })) };
    },
    async upsertRecords(request) {
      const origin = request.source as unknown as JsonValue | undefined;
      const items = await engine.writeItems(
        toScopeValues(request.scope),
        request.records.map((record) => ({ text: record.text, summary: record.summary, metadata: (record.metadata ?? {}) as Record<string, JsonValue>, origin, kind: kindOf(record.metadata) })),
      );
      return { records: items.map((item) => handleOf(key, item)) };
    },
    async query(request) {
      const result = await engine.retrieve(toScopeSelector(request.scope), request.query, {
        topK: request.topK ?? 10,
        // The contract answers with records: retrieval always descends to items.
        sufficiencyChecks: false,
        metadataEquals: request.metadataFilter as Record<string, JsonValue> | undefined,
      });
      return { snippets: result.items.map((entry) => toSnippet(key, entry.item, entry.score)) };
    },
    async list(request) {
      const binding = { scope: request.scope, listing: 'records', filter: request.metadataFilter };
      let after: ItemKeyset | undefined;
      if (request.cursor !== undefined) {
        const position = codec.decode(request.cursor, binding) as Partial<ItemKeyset> | null;
        if (typeof position?.createdAt !== 'string' || typeof position.id !== 'string') throw new InvalidCursorError({ reason: 'malformed' });
        after = { createdAt: position.createdAt, id: position.id };
      }
      const limit = request.limit ?? defaultListLimit;
      const rows = await engine.listItems(toScopeSelector(request.scope), { statuses: ['approved', 'pending'], metadataEquals: request.metadataFilter as Record<string, JsonValue> | undefined }, { after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((item) => toSnippet(key, item)),
        ...(rows.length > limit && last !== undefined ? { nextCursor: codec.encode({ createdAt: last.createdAt, id: last.id }, binding) } : {}),
      };
    },
    async get(handle, scope) {
      const item = (await itemsInScope(scope, [handle.providerRecordId])).get(handle.providerRecordId);
      return item === undefined || item.mergedInto !== undefined ? null : toSnippet(key, item);
    },
    async forget(handles, scope) {
      const found = await itemsInScope(scope, ids(handles));
      for (const item of found.values()) await engine.forget(item.scope, [item.id]);
      return {};
    },
    async correct(handle, patch, scope) {
      const item = (await itemsInScope(scope, [handle.providerRecordId])).get(handle.providerRecordId);
      if (item === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
      // A patch sets the metadata keys it names and keeps the others.
      const metadata = patch.metadata === undefined ? undefined : { ...item.metadata, ...(patch.metadata as Record<string, JsonValue>) };
      const updated = await engine.correct(item.scope, item.id, { text: patch.text, summary: patch.summary, metadata, kind: kindOf(patch.metadata) ?? item.kind });
      return { record: handleOf(key, updated ?? item) };
    },
    async profile(scope) {
      const selector = toScopeSelector(scope);
      const stable = await engine.listItems(selector, { statuses: ['approved'], kinds: ['profile', 'preference', 'goal', 'constraint'] }, { limit: 50 });
      // A scope with no profile-like items is summarised by what it holds (its latest approved items).
      const items = stable.length > 0 ? stable : (await engine.listItems(selector, { statuses: ['approved'] }, { limit: 1000 })).slice(-profileFallbackSize);
      const snippets: MemorySnippet[] = items.map((item) => toSnippet(key, item));
      return { summary: items.map((item) => `- ${item.text}`).join('\n'), items: snippets };
    },
  });
}

/**
 * Creates the engine as a `MemoryAdapter` (key `engine`): `MemoryScope` maps onto the default
 * scope model with `companyId` as the boundary field; `capture` memorizes (extraction runs inside
 * the call; a payload object `{ messages: [{ role, content }] }` is memorized as a conversation),
 * `upsertRecords` writes curated items, `query` retrieves, `profile` summarises the
 * scope's profile, preference, goal and constraint items.
 */
export async function createEngineAdapter(settings: EngineAdapterSettings = {}): Promise<MemoryAdapter> {
  const { cursorSecret, ...engineSettings } = settings;
  return engineAdapterOver(await createEngineForAdapter(engineSettings), { cursorSecret });
}

/** An engine on the adapter's default scope model, for callers that want the engine and the adapter over it. */
export function createEngineForAdapter(settings: Omit<EngineAdapterSettings, 'cursorSecret'> = {}): Promise<MemoryEngine> {
  return createMemoryEngine({ ...settings, scope: memoryScopeModelSchema, boundaryFields: memoryScopeBoundaryFields });
}
