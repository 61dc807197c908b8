import type { MemoryScope, MemorySourceRef, MemoryUsage } from '@memplane/core';
import type { MemoryKind } from '@memplane/rules';

/** One memory item an extractor found in captured residue. */
export interface ExtractedItem {
  /** The taxonomy kind. */
  kind: MemoryKind;
  /** The memory, as a self-contained statement. */
  text: string;
  /** How sure the extractor is, 0 to 1. */
  confidence: number;
  /** The passage of the residue that supports it. */
  quote?: string;
  /** When a `todo` stops mattering, ISO 8601. */
  expiresAt?: string;
}

/** One turn of a captured conversation. */
export interface ExtractionTurn {
  /** Who spoke: `user`, `assistant` (also `ai`, `model`), or a speaker's name. */
  role: string;
  /** What they said. */
  content: string;
}

/** What an extractor reads. */
export interface ExtractionInput {
  /** The captured text (for a conversation, one `role: content` line per turn). */
  text: string;
  /**
   * The turns, with their roles, when the capture was a conversation (a payload object
   * `{ messages: [{ role, content }] }`); an extractor can then treat the assistant's turns apart.
   * Extraction jobs of an asynchronous extractor read the stored residue and get `text` only.
   */
  messages?: ReadonlyArray<ExtractionTurn>;
  /** The scope of the capture. */
  scope: MemoryScope;
  /** Where the residue came from. */
  source?: MemorySourceRef;
}

/** What an extractor returns. */
export interface ExtractionOutput {
  /** The items found, possibly none. */
  items: ExtractedItem[];
  /** Usage of the model calls made, when the extractor called one (provider = the adapter key). */
  usage?: MemoryUsage[];
}

/**
 * Turns captured residue into memory items. `sync` extractors run inside `capture`; `async`
 * ones (model calls) run as extraction jobs that `getExtractionJob` polls.
 */
export interface MemoryExtractor {
  /** A name for logs and job records, such as `rules` or `llm:gpt-4o-mini`. */
  readonly name: string;
  /** Whether extraction runs inside capture (`sync`) or as an extraction job (`async`). */
  readonly mode: 'sync' | 'async';
  /** Extracts items. May throw a `MemoryError`, which fails the job. */
  extract(input: ExtractionInput, options?: { signal?: AbortSignal }): Promise<ExtractionOutput>;
}
