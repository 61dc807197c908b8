import type { MemoryExtractionJob } from './memory-adapter-v1-extraction-job';
import type { MemoryRecordHandle, MemorySnippet } from './memory-adapter-v1-records';
import type { MemoryUsage } from './memory-adapter-v1-usage';
import type { MemoryWarning } from './memory-adapter-v1-warning';

/** The result of `capture`. */
export interface MemoryCaptureResult {
  /** Handles of records created synchronously. */
  records?: MemoryRecordHandle[];
  /** Extraction jobs that will create records later. */
  jobs?: MemoryExtractionJob[];
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** A record of a batch write that the provider rejected while accepting the others. */
export interface MemoryRecordFailure {
  /** The index of the rejected record in the request's `records`. */
  index: number;
  /** A stable error code, one of the `MEMORY_*` codes. */
  code: string;
  /** Why the provider rejected it. */
  message: string;
  /** Whether writing the same record again may succeed. */
  isRetryable?: boolean;
}

/** The result of `upsertRecords`. */
export interface MemoryRecordWriteResult {
  /** Handles of the records written, in request order, skipping the ones in `failures`. */
  records?: MemoryRecordHandle[];
  /** Records the provider rejected while it accepted the rest. Never silently dropped. */
  failures?: MemoryRecordFailure[];
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** The result of `forget`. */
export interface MemoryForgetResult {
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /**
   * Handles that were skipped: `not_found` for one that names no record in the scope (an
   * adapter that can tell says so; `@memplane/service` then does not count it as forgotten),
   * `scope_violation` for one the caller may not change, `other` for one issued by another
   * adapter.
   */
  warnings?: MemoryWarning[];
}

/** The changes `correct` applies. At least one field must be set. */
export interface MemoryCorrectionPatch {
  /** The corrected text. */
  text?: string;
  /** The corrected summary. */
  summary?: string;
  /** Metadata keys to set. Keys not named stay as they were. */
  metadata?: Record<string, unknown>;
  /** Why the record was corrected, kept with its history where the provider can. */
  reason?: string;
}

/** The result of `correct`. */
export interface MemoryCorrectionResult {
  /** The handle of the corrected record: the same record, or the superseding version. */
  record: MemoryRecordHandle;
  /** The handle of the version it replaced, when the provider keeps history as separate records. */
  supersedes?: MemoryRecordHandle;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** The result of `profile`. */
export interface MemoryProfile {
  /** A synthesised summary of the stable preferences and facts of the scope. */
  summary: string;
  /** The records the summary was built from, when the provider exposes them. */
  items?: MemorySnippet[];
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** The result of `retryExtractionJob`. */
export interface MemoryExtractionRetryResult {
  /** The job after the retry was accepted. It may carry a new provider job id. */
  job: MemoryExtractionJob;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** The result of `getExtractionJob`. */
export interface MemoryExtractionJobResult {
  /** The job, or null when no such job is visible in the scope. */
  job: MemoryExtractionJob | null;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
}

/** One step of a retrieval trace. */
export interface MemoryExplanationStep {
  /** The record the step is about. */
  handle: MemoryRecordHandle;
  /** The retrieval stage, such as `lexical`, `vector` or `fusion`. */
  stage: string;
  /** The score at this stage. */
  score?: number;
  /** A human-readable reason, such as the matched terms. */
  details?: string;
}

/** The result of `explain`. */
export interface MemoryExplanation {
  /** The trace, in the order the provider produced it. */
  steps: MemoryExplanationStep[];
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
}
