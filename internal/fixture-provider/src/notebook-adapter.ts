import { isDeepStrictEqual } from 'node:util';
import {
  createCursorCodec,
  defineMemoryAdapter,
  parseInput,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourcePayload,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import { createNotebook, notebookNamed, type NotebookPage } from './notebook-store';

/** The key of every notebook adapter, carried by every handle it issues. */
export const notebookAdapterKey = 'notebook';

/** Settings of {@link createNotebookAdapter}. Every setting is optional. */
export interface NotebookAdapterSettings {
  /**
   * The notebook to write in. Adapters given the same name share its pages, like two clients
   * of one backend. Default: a notebook of this adapter's own.
   */
  notebook?: string;
  /** The HMAC secret of list cursors. Default: the notebook's own random secret, shared by its peers. */
  cursorSecret?: string;
  /** The clock of `createdAt` and `updatedAt`. Default: the real time. */
  now?: () => Date;
}

/** The settings schema; unknown keys are refused. The provider description derives its binding config from it. */
export const notebookAdapterSettingsSchema = z.strictObject({
  notebook: z.string().min(1).max(200).optional(),
  cursorSecret: z.string().min(16).optional(),
  now: z.custom<() => Date>((value) => typeof value === 'function', 'must be a function returning a Date').optional(),
});

/**
 * The notebook's manifest: the required surfaces and a metadata filter, nothing else (no
 * extraction, corrections, profiles or explanations: each of those is refused). Every
 * operation runs in the process, so none is remote.
 */
export const notebookCapabilities: Readonly<MemoryAdapterCapabilities> = Object.freeze({ metadataFilter: true, remoteOperations: [] });

const handleOf = (page: NotebookPage): MemoryRecordHandle => ({ providerKey: notebookAdapterKey, providerRecordId: page.id });

function snippetOf(page: NotebookPage, score?: number): MemorySnippet {
  return {
    handle: handleOf(page),
    text: page.text,
    ...(score === undefined ? {} : { score }),
    ...(page.summary === undefined ? {} : { summary: page.summary }),
    ...(page.source === undefined ? {} : { source: { ...page.source } }),
    ...(page.metadata === undefined ? {} : { metadata: structuredClone(page.metadata) }),
    scope: { ...page.scope },
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

/** Whether a page's metadata has every value of the filter (deep equality). */
function passes(page: NotebookPage, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([key, value]) => page.metadata !== undefined && key in page.metadata && isDeepStrictEqual(page.metadata[key], value));
}

const termsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** The text a notebook keeps of a payload: its text, or the JSON of its object, saying what was lost. */
function payloadText(payload: MemorySourcePayload): { text: string; warnings: MemoryWarning[] } {
  const warnings: MemoryWarning[] = [];
  const hasText = payload.text !== undefined && payload.text.trim() !== '';
  if (payload.object !== undefined) {
    warnings.push(
      hasText
        ? { type: 'unsupported', feature: 'payload.object', details: 'The object was ignored; the payload text was kept.' }
        : { type: 'compatibility', feature: 'payload.object', details: 'The notebook keeps text; the object was kept as its JSON text.' },
    );
  }
  if (payload.metadata !== undefined) warnings.push({ type: 'unsupported', feature: 'payload.metadata', details: 'Payload metadata is not kept; request metadata is.' });
  return { text: hasText ? (payload.text as string) : JSON.stringify(payload.object ?? {}), warnings };
}

/**
 * A notebook adapter: pages kept in the process, found by the words of a query. Small, and
 * honest to the contract: every read is held to the whole scope, handles name pages of this
 * notebook only, cursors are keyset positions signed for the scope and filter, forgotten
 * pages are gone. It exists so tests can bind a provider no host has heard of.
 */
export function createNotebookAdapter(settings: NotebookAdapterSettings = {}): MemoryAdapter {
  const valid = parseInput(notebookAdapterSettingsSchema, settings, 'notebook adapter settings', 'settings');
  const notebook = valid.notebook === undefined ? createNotebook() : notebookNamed(valid.notebook);
  const clock = valid.now ?? (() => new Date());
  const now = () => clock().toISOString();
  const codec = createCursorCodec({ secret: valid.cursorSecret ?? notebook.cursorSecret, now: () => clock().getTime() });
  const listing = (scope: MemoryScope, filter: Record<string, unknown> | undefined) => ({ scope, listing: 'pages', filter: filter ?? null });
  return defineMemoryAdapter({
    key: notebookAdapterKey,
    capabilities: { ...notebookCapabilities, remoteOperations: [] },
    async capture(request) {
      const { text, warnings } = payloadText(request.payload);
      const written = notebook.write(request.scope, [{ text, ...(request.metadata === undefined ? {} : { metadata: request.metadata }) }], request.source, now());
      return { records: written.map(handleOf), warnings };
    },
    async upsertRecords(request) {
      return { records: notebook.write(request.scope, request.records, request.source, now()).map(handleOf) };
    },
    async query(request) {
      const terms = termsOf(request.query);
      const scored = notebook
        .visible(request.scope)
        .filter((page) => passes(page, request.metadataFilter))
        .map((page) => {
          const words = termsOf(`${page.text} ${page.summary ?? ''}`);
          return { page, score: [...terms].filter((term) => words.has(term)).length };
        })
        .filter(({ score }) => score > 0)
        // Best first; among equals, the older page first, so the order is stable.
        .sort((left, right) => right.score - left.score || left.page.position - right.page.position);
      return { snippets: scored.slice(0, request.topK ?? 10).map(({ page, score }) => snippetOf(page, score)) };
    },
    async list(request) {
      const binding = listing(request.scope, request.metadataFilter);
      const after = request.cursor === undefined ? 0 : (codec.decode(request.cursor, binding) as number);
      const limit = request.limit ?? 50;
      const pages = notebook.visible(request.scope).filter((page) => page.position > after && passes(page, request.metadataFilter));
      const shown = pages.slice(0, limit);
      const last = shown.at(-1);
      return {
        items: shown.map((page) => snippetOf(page)),
        ...(pages.length > limit && last !== undefined ? { nextCursor: codec.encode(last.position, binding) } : {}),
      };
    },
    async get(handle, scope) {
      const page = notebook.find(handle.providerRecordId, scope);
      return page === undefined ? null : snippetOf(page);
    },
    async forget(handles, scope) {
      const warnings: MemoryWarning[] = [];
      for (const handle of handles) {
        const page = notebook.find(handle.providerRecordId, scope);
        if (page === undefined || !notebook.remove(page.id)) {
          warnings.push({ type: 'not_found', providerRecordId: handle.providerRecordId, details: 'nothing was forgotten' });
        }
      }
      return { warnings };
    },
  });
}
