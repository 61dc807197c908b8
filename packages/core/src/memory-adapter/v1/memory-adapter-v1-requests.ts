import type { MemoryScope } from './memory-adapter-v1-scope';
import type { MemoryHookContext, MemorySourcePayload, MemorySourceRef } from './memory-adapter-v1-source';

/** Captures raw residue (a run, a comment, a document) for the provider to extract from. */
export interface MemoryCaptureRequest {
  /** The binding the request was resolved through. */
  bindingKey: string;
  /** The scope the captured memory belongs to. */
  scope: MemoryScope;
  /** Where the residue came from. `source.companyId` must equal `scope.companyId`. */
  source: MemorySourceRef;
  /** The residue itself. */
  payload: MemorySourcePayload;
  /** The hook delivery that caused the capture, if any. */
  hook?: MemoryHookContext;
  /**
   * `capture_residue` (the default) lets the provider extract memories from the payload;
   * `capture_record` stores the payload as one record.
   */
  mode?: 'capture_residue' | 'capture_record';
  /** Caller metadata stored with every record the capture produces. Must be JSON-serialisable. */
  metadata?: Record<string, unknown>;
}

/** One curated record to write. */
export interface MemoryRecordInput {
  /** The record text. Must not be empty. */
  text: string;
  /** A short summary. */
  summary?: string;
  /** Caller metadata, returned unchanged on reads. Must be JSON-serialisable. */
  metadata?: Record<string, unknown>;
}

/** Writes curated durable records as given. */
export interface MemoryRecordWriteRequest {
  /** The binding the request was resolved through. */
  bindingKey: string;
  /** The scope the records belong to. */
  scope: MemoryScope;
  /** Where the records came from. When set, `source.companyId` must equal `scope.companyId`. */
  source?: MemorySourceRef;
  /** The records, at least one. */
  records: MemoryRecordInput[];
}

/** What a query is for; providers may rank or trim differently. */
export type MemoryQueryIntent = 'agent_preamble' | 'answer' | 'browse';

/** Retrieves the records most relevant to a text. */
export interface MemoryQueryRequest {
  /** The binding the request was resolved through. */
  bindingKey: string;
  /** Only records matching this scope are returned. */
  scope: MemoryScope;
  /** The query text. Must not be empty. */
  query: string;
  /** The maximum number of snippets. Default 10, at most 100. */
  topK?: number;
  /** What the results are for. */
  intent?: MemoryQueryIntent;
  /** Only records whose metadata has these top-level values (deep equality). */
  metadataFilter?: Record<string, unknown>;
}

/** Browses the records of a scope page by page. */
export interface MemoryListRequest {
  /** The binding the request was resolved through. */
  bindingKey: string;
  /** Only records matching this scope are listed. */
  scope: MemoryScope;
  /** The `nextCursor` of the previous page. It is only valid with the same scope and filter. */
  cursor?: string;
  /** The maximum number of items on the page. Default 50, at most 200. */
  limit?: number;
  /** Only records whose metadata has these top-level values (deep equality). */
  metadataFilter?: Record<string, unknown>;
}
