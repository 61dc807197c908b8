/** The kinds of work object a memory can come from. */
export type MemorySourceKind =
  | 'issue_comment'
  | 'issue_document'
  | 'issue'
  | 'run'
  | 'activity'
  | 'manual_note'
  | 'external_document';

/**
 * The provenance handle that explains where a memory came from.
 * Adapters store it with the record and return it unchanged on get, list and query.
 */
export interface MemorySourceRef {
  /** What kind of work object produced the memory. */
  kind: MemorySourceKind;
  /** The company that owns the source. Must equal the request scope's `companyId`. */
  companyId: string;
  /** The issue the source belongs to. */
  issueId?: string;
  /** The issue comment, for `issue_comment` sources. */
  commentId?: string;
  /** The document key, for `issue_document` sources. */
  documentKey?: string;
  /** The run, for `run` sources. */
  runId?: string;
  /** The activity entry, for `activity` sources. */
  activityId?: string;
  /** A reference outside the platform, for `external_document` sources (a URL or an id). */
  externalRef?: string;
}

/** The hooks the platform emits when something memory-relevant happens. */
export type MemoryHookKind =
  | 'pre_run_hydrate'
  | 'post_run_capture'
  | 'issue_comment_capture'
  | 'issue_document_capture'
  | 'manual_capture';

/** Describes the hook delivery that caused an operation. */
export interface MemoryHookContext {
  /** Which hook fired. */
  hookKind: MemoryHookKind;
  /** A unique id of this hook delivery. */
  hookId: string;
  /** When the hook fired, as an ISO 8601 timestamp. */
  triggeredAt: string;
  /** The agent whose action triggered the hook, if any. */
  actorAgentId?: string;
  /** The heartbeat run the hook belongs to, if any. */
  heartbeatRunId?: string;
}

/**
 * The structured source payload handed to `capture`.
 * At least one of `text` and `object` must be set.
 */
export interface MemorySourcePayload {
  /** Plain text of the source (a comment body, a run transcript excerpt). */
  text?: string;
  /** The media type of `text` or of the original object, such as `text/markdown`. */
  mimeType?: string;
  /** Free-form metadata about the payload. Must be JSON-serialisable. */
  metadata?: Record<string, unknown>;
  /** The structured source object, so the provider can decide how to extract and chunk. Must be JSON-serialisable. */
  object?: Record<string, unknown>;
}
