import type { MemoryOperationName } from './memory-adapter-v1';

/**
 * The capability manifest of an adapter. It is JSON-serialisable and declarative:
 * a flag that is absent or false means the surface is not available, and calling it
 * throws `UnsupportedCapabilityError`. The conformance suite skips rules only from
 * this manifest.
 */
export interface MemoryAdapterCapabilities {
  /** `profile(scope)` synthesises stable preferences or summaries. */
  profile?: boolean;
  /** `correct(handle, patch, scope)` updates a record, keeping or superseding its history. */
  correction?: boolean;
  /** Capture accepts non-text payloads (`payload.object`, non-text `mimeType`) natively. */
  multimodal?: boolean;
  /** The provider extracts memories from captured residue itself. */
  providerManagedExtraction?: boolean;
  /** Capture may return extraction jobs that finish later; `getExtractionJob` polls them. */
  asyncExtraction?: boolean;
  /** The provider has its own browse surface beyond `list`. */
  providerNativeBrowse?: boolean;
  /** `listExtractionJobs(scope, cursor)` lists extraction jobs (possibly only some statuses; see the adapter README). */
  listExtractionJobs?: boolean;
  /** `retryExtractionJob(jobId, scope)` re-drives a failed extraction job. */
  retryExtractionJob?: boolean;
  /** `explain(result, scope)` exposes retrieval traces. */
  explain?: boolean;
  /** `metadataFilter` on query and list is applied (by the provider or after retrieval). */
  metadataFilter?: boolean;
  /**
   * The operations that call a remote service (the provider's API, an embedding or LLM
   * endpoint), where rate limits, server errors, timeouts and malformed bodies can happen.
   * Absent means every operation does. An adapter that serves an operation locally leaves
   * it out, and the conformance suite skips that operation's `errors.*` rules, saying so.
   */
  remoteOperations?: MemoryOperationName[];
}
