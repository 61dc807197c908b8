import type { JsonValue } from '@memplane/core';
import type { MemoryKind } from '@memplane/rules';

/**
 * A full scope: one string value for every field of the engine's scope schema, in schema order.
 * Writes always carry a full scope; the engine never invents a scope identifier of its own.
 */
export type ScopeValues = Readonly<Record<string, string>>;

/**
 * A validated range of scopes for a read: for each field, the values it may take (an exact value is
 * a list of one). A field that is absent (or `undefined`) is ANY. The engine checks the cross-scope
 * policy (boundary fields never ANY, combination cap) before a range ever reaches a store, so a store
 * only translates it: `column = ANY($values)` per present field.
 */
export type ScopeRange = Readonly<Record<string, readonly string[] | undefined>>;

/** The eleven kinds of the memory type taxonomy (shared with `@memplane/markdown`). */
export type ItemKind = MemoryKind;

/** Review status: `approved` items are retrieved; `pending` wait for review; `rejected` are kept out. */
export type ItemStatus = 'approved' | 'pending' | 'rejected';

/** PII risk: 0 none, 1 redacted patterns found (flagged), 2 raw PII (forces `pending`). */
export type PiiRisk = 0 | 1 | 2;

/** One fragment of a resource: a turn of a conversation, a page or a character span of a document. */
export interface SegmentRow {
  /** Stable id, unique within the store. */
  readonly id: string;
  readonly resourceId: string;
  readonly scope: ScopeValues;
  /** Position of the segment in its resource, from 0. */
  readonly ordinal: number;
  readonly text: string;
  /** Character span in the resource content, `[start, end)` in UTF-16 code units. */
  readonly start: number;
  readonly end: number;
  /** The speaker of a conversation turn (`user`, `assistant`, a name), when known. */
  readonly role?: string | undefined;
  /** The page of a paged document, from 1, when known. */
  readonly page?: number | undefined;
  /** When the turn was said, ISO 8601, when known. */
  readonly occurredAt?: string | undefined;
}

/** The Resource layer: the source of truth for raw conversations and files. */
export interface ResourceRow {
  readonly id: string;
  readonly scope: ScopeValues;
  /** `image` and `audio` are binary resources; a PDF is a `document`. */
  readonly modality: 'conversation' | 'document' | 'uri' | 'image' | 'audio';
  /**
   * The content itself; absent when only a URI is kept. For a binary resource (image, audio, PDF)
   * the text derived from it by `preprocess_multimodal` (captions, OCR, transcript): the bytes are never stored.
   */
  readonly content?: string | undefined;
  /** Where the content lives (object storage), when it is not kept inline. */
  readonly uri?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly metadata: Readonly<Record<string, JsonValue>>;
  /** SHA-256 (hex) of the canonical content; with `pipelineRevision` the idempotency key of memorize. */
  readonly contentHash: string;
  readonly pipelineRevision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where an item came from: a span (or page, or turn) of a resource. */
export interface ItemEvidence {
  readonly resourceId: string;
  readonly segmentId?: string | undefined;
  /** Character span in the resource content, `[start, end)`, when known. */
  readonly start?: number | undefined;
  readonly end?: number | undefined;
  readonly page?: number | undefined;
  /** A short quote of the evidence, already PII-redacted. */
  readonly quote?: string | undefined;
  /** For text derived from a binary resource: what it was derived as, and the time span in the media. */
  readonly media?: MediaSpan | undefined;
}

/** Where a segment derived from a media file lies in it (`preprocess_multimodal`). */
export interface MediaSpan {
  /** `caption` of an image, `ocr` text, a `transcript` span of audio, the text of a PDF `page`. */
  readonly source: 'caption' | 'ocr' | 'transcript' | 'page';
  /** Time span in audio, milliseconds from the start, `[startMs, endMs)`. */
  readonly startMs?: number | undefined;
  readonly endMs?: number | undefined;
}

/** The Item layer: one reusable memory point. */
export interface ItemRow {
  readonly id: string;
  readonly scope: ScopeValues;
  readonly text: string;
  readonly summary?: string | undefined;
  readonly kind: ItemKind;
  readonly status: ItemStatus;
  readonly piiRisk: PiiRisk;
  /** Extraction confidence in [0, 1]. */
  readonly confidence: number;
  /** How stable the item is in [0, 1]; facts decay with disuse, profiles stay at 1. */
  readonly stability: number;
  /** Starts at 1; every update (correction, merge, re-categorisation) adds 1. Optimistic concurrency key. */
  readonly version: number;
  readonly evidence: readonly ItemEvidence[];
  /** Keys of the categories the item belongs to. */
  readonly categoryKeys: readonly string[];
  readonly metadata: Readonly<Record<string, JsonValue>>;
  /** The caller's provenance reference (such as the contract's `MemorySourceRef`), kept and returned as given. */
  readonly origin?: JsonValue | undefined;
  /**
   * The analysed tokens of text and summary (`tokenize` of `@memplane/rules`: NFKC, lowercase,
   * stopwords out, Porter2 stems), repeats kept for term frequency. Computed by the engine, so every
   * backend matches and scores exactly the same terms; backends index them (GIN, FTS5, a map).
   */
  readonly lexicalTokens: readonly string[];
  /** Hash of the normalised text, for exact-duplicate detection within a scope. */
  readonly textHash: string;
  /** Times the item was returned by retrieve; drives the decay of facts. */
  readonly useCount: number;
  readonly lastUsedAt?: string | undefined;
  /** When a todo stops being relevant; expired items are not retrieved. */
  readonly expiresAt?: string | undefined;
  /** Set when evolve merged this item into another; such items are kept out of retrieval. */
  readonly mergedInto?: string | undefined;
  /** The embedding model whose vector the vector index holds for this item, when one was written. */
  readonly embeddingModel?: string | undefined;
  /** Governance: the scope schema, taxonomy and pipeline the item was written under. */
  readonly scopeSchemaHash: string;
  readonly taxonomyVersion: string;
  readonly pipelineRevision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The fields of an item an update may change. `version` is bumped by the store. */
export type ItemPatch = Partial<
  Pick<
    ItemRow,
    | 'text'
    | 'summary'
    | 'kind'
    | 'status'
    | 'piiRisk'
    | 'confidence'
    | 'stability'
    | 'evidence'
    | 'categoryKeys'
    | 'metadata'
    | 'origin'
    | 'textHash'
    | 'lexicalTokens'
    | 'expiresAt'
    | 'mergedInto'
    | 'embeddingModel'
    | 'taxonomyVersion'
    | 'pipelineRevision'
    | 'updatedAt'
  >
>;

/** The Category layer: one category of the user-given taxonomy, within a scope. */
export interface CategoryRow {
  readonly scope: ScopeValues;
  /** The key the user gave the category; unique per scope. */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly summary?: string | undefined;
  /** Representative items, for pruning retrieval and explaining it. */
  readonly anchorItemIds: readonly string[];
  readonly itemCount: number;
  readonly taxonomyVersion: string;
  readonly updatedAt: string;
}

/** The Intention layer: goals, constraints and progress of a scope, one row per version. */
export interface IntentionRow {
  readonly id: string;
  readonly scope: ScopeValues;
  /** Starts at 1 per scope; the latest version is the current intention. */
  readonly version: number;
  readonly goals: readonly string[];
  readonly constraints: readonly string[];
  readonly progress: readonly string[];
  /** Categories the intention routes to first. */
  readonly categoryKeys: readonly string[];
  /** Items the intention was built from. */
  readonly sourceItemIds: readonly string[];
  readonly pipelineRevision: number;
  readonly createdAt: string;
}

/** One accepted pipeline change: the full definition of the three pipelines after it. Service-wide. */
export interface PipelineRevisionRow {
  /** 1 for the defaults, then +1 per accepted change. */
  readonly revision: number;
  /** What the change was, such as `insert_after extract_items my_step`. */
  readonly change: string;
  /** The step topology and step configs of every flow, as JSON. */
  readonly definition: JsonValue;
  /** SHA-256 of the canonical definition. */
  readonly definitionHash: string;
  readonly createdAt: string;
}

/** The three flows of the engine. */
export type EngineFlow = 'memorize' | 'retrieve' | 'evolve';

/** Time and outcome of one step of a run. */
export interface RunStepRecord {
  readonly stepId: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly status: 'ok' | 'skipped' | 'failed';
  readonly detail?: string | undefined;
}

/** Model usage of one call. Counters stay `undefined` unless the model reported them. */
export interface RunLlmUsage {
  readonly stepId: string;
  readonly profile: string;
  readonly model: string;
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly raw?: JsonValue | undefined;
}

/** The run log of one flow execution (governance, §10.2). */
export interface RunLogRow {
  readonly id: string;
  readonly flow: EngineFlow;
  readonly status: 'ok' | 'failed';
  readonly pipelineRevision: number;
  readonly scopeRange: ScopeRange;
  readonly inputSummary: string;
  readonly outputSummary: string;
  readonly steps: readonly RunStepRecord[];
  readonly llmUsage: readonly RunLlmUsage[];
  readonly failures: readonly string[];
  readonly startedAt: string;
  readonly finishedAt: string;
}

/** What the store records about the service (§5.2). */
export interface ServiceMetaRow {
  readonly scopeSchemaHash: string;
  /** Scope field names, in schema order: the column order of every scope prefix. */
  readonly scopeFields: readonly string[];
  readonly boundaryFields: readonly string[];
  readonly ddlVersion: number;
  readonly taxonomyVersion: string;
  /** Redacted summary of the configured providers (no secrets), for reproducibility. */
  readonly providerSummary: JsonValue;
  readonly createdAt: string;
}
