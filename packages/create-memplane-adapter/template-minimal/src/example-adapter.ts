/**
 * A memplane memory adapter for Example, a local store. The records live in an `ExampleStore`
 * in this process; replace it with your storage (files, SQLite, an embedded database) and keep
 * the rest. `example-adapter.conformance.test.ts` runs the memplane conformance suite over it.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  createCursorCodec,
  cursorSecretSchema,
  defineMemoryAdapter,
  InvalidCursorError,
  MemoryNotFoundError,
  normalizeScope,
  parseInput,
  scopeMatches,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
  type MemoryRecordHandle,
  type MemoryRecordInput,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourceRef,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';

/** The adapter key: the `providerKey` of every handle the adapter issues. */
export const exampleAdapterKey = 'example';

/** One stored record. */
export interface ExampleRecord {
  /** The store's id of the record. */
  id: string;
  /** Its place in creation order; list pages walk it (keyset, never an offset). */
  position: number;
  /** The scope it was written under. */
  scope: MemoryScope;
  /** The text, as written. */
  text: string;
  /** The summary, as written. */
  summary?: string;
  /** The caller's metadata, as written. */
  metadata?: Record<string, unknown>;
  /** Where the record came from, as written. */
  source?: MemorySourceRef;
  /** When it was written (ISO 8601). */
  createdAt: string;
  /** When it last changed (ISO 8601). */
  updatedAt: string;
}

/** Where the records live. Adapters over one store see the same records, as two processes over one database would. */
export interface ExampleStore {
  /** The records by id, in creation order. */
  readonly records: Map<string, ExampleRecord>;
  /** The position the next record gets. */
  nextPosition: number;
}

/** Creates an empty store. */
export function createExampleStore(): ExampleStore {
  return { records: new Map(), nextPosition: 1 };
}

/** Settings of {@link createExampleAdapter}. */
export interface ExampleAdapterSettings {
  /** The store to read and write. Default: a new, empty store of this adapter alone. */
  store?: ExampleStore;
  /** HMAC secret of list cursors, at least 16 characters. Default: random per adapter; give adapters over one store the same one. */
  cursorSecret?: string | Uint8Array;
}

/**
 * The schema of {@link ExampleAdapterSettings}: what `createExampleAdapter` validates, and what
 * `src/provider.ts` derives a binding's config from.
 */
export const exampleAdapterSettingsSchema = z.strictObject({
  store: z
    .custom<ExampleStore>(
      (value) => typeof value === 'object' && value !== null && (value as { records?: unknown }).records instanceof Map,
      'must be a store made by createExampleStore()',
    )
    .optional(),
  cursorSecret: cursorSecretSchema.optional(),
});

/**
 * What the adapter can do beyond the required operations. No operation calls a remote service,
 * so `remoteOperations` is empty and the suite skips its provider-fault rules; name the
 * operations that do once your store is remote.
 */
export const exampleCapabilities: MemoryAdapterCapabilities = {
  correction: true,
  metadataFilter: true,
  remoteOperations: [],
};

const recordPrefix = 'record:';

function toHandle(record: ExampleRecord): MemoryRecordHandle {
  return { providerKey: exampleAdapterKey, providerRecordId: `${recordPrefix}${record.id}` };
}

function toSnippet(record: ExampleRecord, score?: number): MemorySnippet {
  return {
    handle: toHandle(record),
    text: record.text,
    ...(score === undefined ? {} : { score }),
    ...(record.summary === undefined ? {} : { summary: record.summary }),
    ...(record.source === undefined ? {} : { source: structuredClone(record.source) }),
    ...(record.metadata === undefined ? {} : { metadata: structuredClone(record.metadata) }),
    scope: { ...record.scope },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** Lower-case words, split on anything that is not a letter or a digit. */
function words(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word !== ''),
  );
}

function matchesMetadata(record: ExampleRecord, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  const metadata = record.metadata ?? {};
  return Object.entries(filter).every(([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value));
}

const cursorPositionSchema = z.strictObject({ after: z.number().int().nonnegative() });

/**
 * Creates the Example adapter. Throws `MemoryValidationError` naming the bad setting. Every
 * request is validated by `defineMemoryAdapter` before the code below runs, and every record
 * is checked against the requested scope here, before anything is returned.
 */
export function createExampleAdapter(settings: ExampleAdapterSettings = {}): MemoryAdapter {
  const valid = parseInput(exampleAdapterSettingsSchema, settings, 'Example adapter settings', 'settings');
  const store = valid.store ?? createExampleStore();
  const cursors = createCursorCodec(valid.cursorSecret === undefined ? {} : { secret: valid.cursorSecret });

  /** Records visible in the scope, in creation order. */
  const inScope = (scope: MemoryScope, filter?: Record<string, unknown>) =>
    [...store.records.values()].filter((record) => scopeMatches(record.scope, scope) && matchesMetadata(record, filter));

  /** The record a handle names, when it is visible in the scope: not-found and not-yours look the same. */
  const find = (handle: MemoryRecordHandle, scope: MemoryScope): ExampleRecord | undefined => {
    if (!handle.providerRecordId.startsWith(recordPrefix)) return undefined;
    const record = store.records.get(handle.providerRecordId.slice(recordPrefix.length));
    return record !== undefined && scopeMatches(record.scope, scope) ? record : undefined;
  };

  const write = (scope: MemoryScope, input: MemoryRecordInput, source: MemorySourceRef | undefined): MemoryRecordHandle => {
    const now = new Date().toISOString();
    const record: ExampleRecord = {
      id: randomUUID(),
      position: store.nextPosition,
      scope: normalizeScope(scope),
      text: input.text,
      ...(input.summary === undefined ? {} : { summary: input.summary }),
      ...(input.metadata === undefined ? {} : { metadata: structuredClone(input.metadata) }),
      ...(source === undefined ? {} : { source: structuredClone(source) }),
      createdAt: now,
      updatedAt: now,
    };
    store.nextPosition += 1;
    store.records.set(record.id, record);
    return toHandle(record);
  };

  return defineMemoryAdapter({
    key: exampleAdapterKey,
    capabilities: exampleCapabilities,

    async capture(request) {
      const warnings: MemoryWarning[] = [];
      if ((request.mode ?? 'capture_residue') === 'capture_residue') {
        warnings.push({ type: 'compatibility', feature: 'capture_residue', details: 'Example does not extract memories; the payload was stored as one record.' });
      }
      const { text, object, metadata } = request.payload;
      const hasText = text !== undefined && text.trim() !== '';
      if (object !== undefined) {
        warnings.push({ type: 'compatibility', feature: 'payload.object', details: hasText ? 'Only the text was stored.' : 'The object was stored as JSON text.' });
      }
      if (metadata !== undefined) warnings.push({ type: 'unsupported', feature: 'payload.metadata', details: 'Only the request metadata is stored.' });
      const record = { text: hasText ? text : JSON.stringify(object), ...(request.metadata === undefined ? {} : { metadata: request.metadata }) };
      return { records: [write(request.scope, record, request.source)], warnings };
    },

    async upsertRecords(request) {
      return { records: request.records.map((record) => write(request.scope, record, request.source)) };
    },

    async query(request) {
      const wanted = [...words(request.query)];
      const snippets = inScope(request.scope, request.metadataFilter)
        .map((record) => {
          const found = words(`${record.text} ${record.summary ?? ''}`);
          return { record, score: wanted.filter((word) => found.has(word)).length / Math.max(wanted.length, 1) };
        })
        .filter(({ score }) => score > 0)
        .sort((left, right) => right.score - left.score || left.record.position - right.record.position)
        .slice(0, request.topK ?? 10)
        .map(({ record, score }) => toSnippet(record, score));
      return { snippets };
    },

    async list(request) {
      const binding = { scope: request.scope, listing: 'records', filter: request.metadataFilter ?? null };
      let after = 0;
      if (request.cursor !== undefined) {
        const position = cursorPositionSchema.safeParse(cursors.decode(request.cursor, binding));
        if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
        after = position.data.after;
      }
      const limit = request.limit ?? 50;
      const remaining = inScope(request.scope, request.metadataFilter).filter((record) => record.position > after);
      const page = remaining.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((record) => toSnippet(record)),
        ...(remaining.length > limit && last !== undefined ? { nextCursor: cursors.encode({ after: last.position }, binding) } : {}),
      };
    },

    async get(handle, scope) {
      const record = find(handle, scope);
      return record === undefined ? null : toSnippet(record);
    },

    async forget(handles, scope) {
      for (const handle of handles) {
        const record = find(handle, scope);
        if (record !== undefined) store.records.delete(record.id);
      }
      return {};
    },

    async correct(handle, patch, scope) {
      const record = find(handle, scope);
      if (record === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
      // Only what the patch names changes; metadata keys it names are set, the others kept.
      if (patch.text !== undefined) record.text = patch.text;
      if (patch.summary !== undefined) record.summary = patch.summary;
      if (patch.metadata !== undefined) record.metadata = { ...record.metadata, ...structuredClone(patch.metadata) };
      record.updatedAt = new Date().toISOString();
      const warnings: MemoryWarning[] =
        patch.reason === undefined ? [] : [{ type: 'unsupported', feature: 'reason', details: 'Example keeps no history; the reason was not stored.' }];
      return { record: toHandle(record), warnings };
    },
  });
}
