import type { MemoryScope } from './memory-adapter-v1-scope';
import type { MemorySourceRef } from './memory-adapter-v1-source';
import type { MemoryUsage } from './memory-adapter-v1-usage';
import type { MemoryWarning } from './memory-adapter-v1-warning';

/**
 * Points at one record inside one provider. Adapters encode in `providerRecordId`
 * whatever they need (for example which kind of provider id it holds), so the same
 * handle works for get, forget and correct.
 */
export interface MemoryRecordHandle {
  /** The key of the adapter that issued the handle. */
  providerKey: string;
  /** The provider's record id, possibly prefixed with its kind. Opaque to callers. */
  providerRecordId: string;
}

/** One record as returned by query, list and get. */
export interface MemorySnippet {
  /** The handle to use with get, forget and correct. */
  handle: MemoryRecordHandle;
  /** The record text. */
  text: string;
  /**
   * On a query result, the relevance in [0, 1] relative to the best snippet of the answer: the best
   * has 1, one matching half as strongly 0.5, so scores compare within one answer (not across
   * answers). An adapter implementation returns its provider's own score here, on any scale where
   * higher is more relevant; the contract turns it into relevance and keeps it as `rawScore`.
   */
  score?: number;
  /** On a query result, the adapter's own score (BM25, cosine similarity, fused rank) behind `score`, on the provider's scale. */
  rawScore?: number;
  /** A short summary of the record, when one exists. */
  summary?: string;
  /** Where the record came from, unchanged from the write. */
  source?: MemorySourceRef;
  /** The caller's metadata, unchanged from the write. */
  metadata?: Record<string, unknown>;
  /** The scope the record was written under. Used to check every result against the requested scope. */
  scope?: MemoryScope;
  /** When the record was created, as an ISO 8601 timestamp. */
  createdAt?: string;
  /** When the record last changed, as an ISO 8601 timestamp. */
  updatedAt?: string;
}

/** The result of `query`: the snippets to show an agent, best first. */
export interface MemoryContextBundle {
  /** The matching snippets, best first, at most `topK`. */
  snippets: MemorySnippet[];
  /** A profile summary for the scope, when the provider returns one with the query. */
  profileSummary?: string;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options, lossy mappings and dropped out-of-scope records. */
  warnings?: MemoryWarning[];
}

/** One page of `list`. */
export interface MemoryListPage {
  /** The records of this page, at most `limit`. */
  items: MemorySnippet[];
  /** The opaque cursor of the next page. Absent on the last page. */
  nextCursor?: string;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options, lossy mappings and dropped out-of-scope records. */
  warnings?: MemoryWarning[];
}
