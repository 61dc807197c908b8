import { randomBytes } from 'node:crypto';
import { matchesFilter, type FakeFilter } from './supermemory-fake-filters';

/**
 * The state of the fake Supermemory API (test-only, not part of the build). It keeps
 * Supermemory's two id spaces apart (documents and memory entries), processes documents
 * step by step (`queued → extracting → chunking → embedding → indexing → done | failed`, one
 * step per `GET /v3/documents/{id}` or all at once with `settle()`), soft-deletes forgotten
 * memories, versions updated ones, and answers 404 on the first read of a new document, as
 * supermemoryai/supermemory#508 reports.
 */

/** The processing statuses of a document, in order. */
export const documentStatuses = ['queued', 'extracting', 'chunking', 'embedding', 'indexing', 'done'] as const;
type DocumentStatus = (typeof documentStatuses)[number] | 'failed';

/** Flat metadata, as Supermemory stores it. */
export type FlatMetadata = Record<string, string | number | boolean | string[]>;

/** A stored document. */
export interface FakeDocument {
  id: string;
  customId: string | null;
  content: string;
  metadata: FlatMetadata;
  containerTags: string[];
  status: DocumentStatus;
  createdAt: string;
  updatedAt: string;
  /** The document stays invisible to reads until its first read answered 404. */
  visible: boolean;
  /** Extraction fails when processing reaches `extracting`. */
  failExtraction: boolean;
  /** Lightweight source documents of `POST /v4/memories` are created `done` and never extracted. */
  lightweight: boolean;
}

/** A stored memory entry (one version). */
export interface FakeMemory {
  id: string;
  memory: string;
  metadata: FlatMetadata;
  containerTag: string;
  isStatic: boolean;
  version: number;
  isLatest: boolean;
  isForgotten: boolean;
  forgetReason: string | null;
  parentMemoryId: string | null;
  rootMemoryId: string | null;
  documentIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** The fake's state and the operations its handlers use. */
export interface SupermemoryFakeStore {
  readonly documents: Map<string, FakeDocument>;
  readonly memories: Map<string, FakeMemory>;
  /** The current fake time, as ISO 8601, advancing one second per call. */
  tick(): string;
  /** A new random id of Supermemory's shape. */
  newId(): string;
  addDocument(input: { content: string; containerTag: string; metadata: FlatMetadata; customId?: string; failExtraction: boolean }): FakeDocument;
  /** Reads a document for `GET /v3/documents/{id}`: the first read of a new one is a 404, each later one advances processing. */
  readDocument(idOrCustomId: string): FakeDocument | undefined;
  findDocument(idOrCustomId: string): FakeDocument | undefined;
  /** Moves a document one processing step forward, extracting memories when it reaches `done`. */
  advance(document: FakeDocument): void;
  createMemories(containerTag: string, inputs: Array<{ content: string; isStatic?: boolean; metadata?: FlatMetadata }>): { documentId: string; memories: FakeMemory[] };
  /** Finds an entry by id or exact content in a container. */
  findMemory(containerTag: string, target: { id?: string; content?: string }): FakeMemory | undefined;
  updateMemory(previous: FakeMemory, newContent: string, metadata: FlatMetadata | undefined): FakeMemory;
  /** The metadata filters see on an entry: its own over its source documents'. */
  filterableMetadata(memory: FakeMemory): FlatMetadata;
  /** The entries of a container that match the filter, in `createdAt` order. */
  memoriesIn(containerTag: string, filter: FakeFilter | undefined): FakeMemory[];
  /** Finishes processing every document and makes every document visible. */
  settle(): void;
  /** Removes everything. */
  clear(): void;
}

const clockStart = Date.UTC(2026, 0, 1);

/** Terms of a text: lower case, split on anything that is not a letter or a digit. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 1);
}

/** Creates an empty store. */
export function createSupermemoryFakeStore(): SupermemoryFakeStore {
  const documents = new Map<string, FakeDocument>();
  const memories = new Map<string, FakeMemory>();
  let clock = 0;
  const tick = () => new Date(clockStart + ++clock * 1000).toISOString();
  const newId = () => randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22);

  function storeMemory(containerTag: string, content: string, metadata: FlatMetadata, documentId: string, isStatic = false): FakeMemory {
    const now = tick();
    const memory: FakeMemory = {
      id: newId(),
      memory: content,
      metadata: structuredClone(metadata),
      containerTag,
      isStatic,
      version: 1,
      isLatest: true,
      isForgotten: false,
      forgetReason: null,
      parentMemoryId: null,
      rootMemoryId: null,
      documentIds: [documentId],
      createdAt: now,
      updatedAt: now,
    };
    memories.set(memory.id, memory);
    return memory;
  }

  // One memory per paragraph (the fake's stand-in for Supermemory's LLM extraction), in the
  // document's container and linked to it by `documentIds`, with NO metadata of its own: the
  // docs ("How Supermemory Works", concepts/how-it-works: documents vs memories) describe
  // memories extracted from documents and linked to them, never a copy of their metadata.
  function extract(document: FakeDocument): void {
    for (const memory of memories.values()) {
      if (memory.documentIds.includes(document.id) && memory.isLatest) memory.isLatest = false;
    }
    const tag = document.containerTags[0] ?? '';
    for (const paragraph of document.content.split(/\n\s*\n/)) {
      if (paragraph.trim() !== '') storeMemory(tag, paragraph.trim(), {}, document.id);
    }
  }

  const store: SupermemoryFakeStore = {
    documents,
    memories,
    tick,
    newId,
    addDocument(input) {
      const existing =
        input.customId === undefined
          ? undefined
          : [...documents.values()].find((document) => document.customId === input.customId && document.containerTags.includes(input.containerTag));
      const now = tick();
      if (existing !== undefined) {
        Object.assign(existing, { content: input.content, metadata: structuredClone(input.metadata), status: 'queued', updatedAt: now, failExtraction: input.failExtraction });
        return existing;
      }
      const document: FakeDocument = {
        id: newId(),
        customId: input.customId ?? null,
        content: input.content,
        metadata: structuredClone(input.metadata),
        containerTags: [input.containerTag],
        status: 'queued',
        createdAt: now,
        updatedAt: now,
        visible: false,
        failExtraction: input.failExtraction,
        lightweight: false,
      };
      documents.set(document.id, document);
      return document;
    },
    findDocument(idOrCustomId) {
      return documents.get(idOrCustomId) ?? [...documents.values()].find((document) => document.customId === idOrCustomId);
    },
    readDocument(idOrCustomId) {
      const document = store.findDocument(idOrCustomId);
      if (document === undefined) return undefined;
      if (!document.visible) {
        document.visible = true;
        return undefined;
      }
      store.advance(document);
      return document;
    },
    advance(document) {
      if (document.status === 'done' || document.status === 'failed') return;
      if (document.status === 'queued' && document.failExtraction) {
        document.status = 'failed';
      } else {
        const next = documentStatuses[documentStatuses.indexOf(document.status) + 1] ?? 'done';
        document.status = next;
        if (next === 'done') extract(document);
      }
      document.updatedAt = tick();
    },
    createMemories(containerTag, inputs) {
      const now = tick();
      const source: FakeDocument = {
        id: newId(),
        customId: null,
        content: inputs.map((input) => input.content).join('\n\n'),
        metadata: {},
        containerTags: [containerTag],
        status: 'done',
        createdAt: now,
        updatedAt: now,
        visible: true,
        failExtraction: false,
        lightweight: true,
      };
      documents.set(source.id, source);
      const created = inputs.map((input) => storeMemory(containerTag, input.content, input.metadata ?? {}, source.id, input.isStatic ?? false));
      return { documentId: source.id, memories: created };
    },
    findMemory(containerTag, target) {
      for (const memory of memories.values()) {
        if (memory.containerTag !== containerTag) continue;
        if (target.id !== undefined ? memory.id === target.id : memory.memory === target.content && memory.isLatest) return memory;
      }
      return undefined;
    },
    updateMemory(previous, newContent, metadata) {
      for (const memory of memories.values()) {
        if (memory.isLatest && (memory.rootMemoryId ?? memory.id) === (previous.rootMemoryId ?? previous.id)) memory.isLatest = false;
      }
      const now = tick();
      const next: FakeMemory = {
        ...structuredClone(previous),
        id: newId(),
        memory: newContent,
        metadata: structuredClone(metadata ?? previous.metadata),
        version: previous.version + 1,
        isLatest: true,
        isForgotten: false,
        parentMemoryId: previous.id,
        rootMemoryId: previous.rootMemoryId ?? previous.id,
        createdAt: now,
        updatedAt: now,
      };
      memories.set(next.id, next);
      return next;
    },
    memoriesIn(containerTag, filter) {
      return [...memories.values()].filter((memory) => memory.containerTag === containerTag && matchesFilter(filter, store.filterableMetadata(memory)));
    },
    filterableMetadata(memory) {
      // Filters reach an extracted memory through its source documents (the relation): the
      // reading under which the adapter's scope filters can find captured residue at all.
      const inherited: FlatMetadata = {};
      for (const documentId of memory.documentIds) Object.assign(inherited, documents.get(documentId)?.metadata);
      return { ...inherited, ...memory.metadata };
    },
    settle() {
      for (const document of documents.values()) {
        document.visible = true;
        while (document.status !== 'done' && document.status !== 'failed') store.advance(document);
      }
    },
    clear() {
      documents.clear();
      memories.clear();
      clock = 0;
    },
  };
  return store;
}
