import type { MemoryAdapterCapabilities } from './memory-adapter-v1-capabilities';
import type { MemoryExtractionJobPage } from './memory-adapter-v1-extraction-job';
import type { MemoryContextBundle, MemoryListPage, MemoryRecordHandle, MemorySnippet } from './memory-adapter-v1-records';
import type {
  MemoryCaptureRequest,
  MemoryListRequest,
  MemoryQueryRequest,
  MemoryRecordWriteRequest,
} from './memory-adapter-v1-requests';
import type {
  MemoryCaptureResult,
  MemoryCorrectionPatch,
  MemoryCorrectionResult,
  MemoryExplanation,
  MemoryExtractionJobResult,
  MemoryExtractionRetryResult,
  MemoryForgetResult,
  MemoryProfile,
  MemoryRecordWriteResult,
} from './memory-adapter-v1-results';
import type { MemoryScope } from './memory-adapter-v1-scope';

/**
 * The memory adapter contract, version 1.
 *
 * The six required operations are the portable surface every provider implements.
 * The optional surfaces are gated by {@link MemoryAdapterCapabilities}: when the flag
 * is off, calling the surface throws `UnsupportedCapabilityError`.
 */
export interface MemoryAdapter {
  /** The contract version this adapter implements. */
  readonly specificationVersion: 'v1';
  /** The provider key, such as `memory`, `markdown` or `mem0`. Every handle it issues carries it. */
  readonly key: string;
  /** What the adapter can do beyond the required operations. */
  readonly capabilities: MemoryAdapterCapabilities;

  /** Stores raw residue; the provider extracts records now or through extraction jobs. */
  capture(request: MemoryCaptureRequest): Promise<MemoryCaptureResult>;
  /** Writes curated records as given. */
  upsertRecords(request: MemoryRecordWriteRequest): Promise<MemoryRecordWriteResult>;
  /** Returns the records most relevant to the query text, within the scope. */
  query(request: MemoryQueryRequest): Promise<MemoryContextBundle>;
  /** Browses the records of the scope with an opaque cursor. */
  list(request: MemoryListRequest): Promise<MemoryListPage>;
  /** Reads one record, or null when it does not exist in the scope (another company's handle reads as null). */
  get(handle: MemoryRecordHandle, scope: MemoryScope): Promise<MemorySnippet | null>;
  /** Forgets records. Forgetting a missing or already forgotten record is harmless. */
  forget(handles: MemoryRecordHandle[], scope: MemoryScope): Promise<MemoryForgetResult>;

  /** Corrects a record. Needs `capabilities.correction`. */
  correct(handle: MemoryRecordHandle, patch: MemoryCorrectionPatch, scope: MemoryScope): Promise<MemoryCorrectionResult>;
  /** Summarises the scope's stable preferences and facts. Needs `capabilities.profile`. */
  profile(scope: MemoryScope): Promise<MemoryProfile>;
  /** Reads one extraction job. Needs `capabilities.asyncExtraction`. */
  getExtractionJob(providerJobId: string, scope: MemoryScope): Promise<MemoryExtractionJobResult>;
  /** Lists extraction jobs of the scope. Needs `capabilities.listExtractionJobs`. */
  listExtractionJobs(scope: MemoryScope, cursor?: string): Promise<MemoryExtractionJobPage>;
  /** Re-drives a failed extraction job. Needs `capabilities.retryExtractionJob`. */
  retryExtractionJob(providerJobId: string, scope: MemoryScope): Promise<MemoryExtractionRetryResult>;
  /** Explains how a query result was retrieved. Needs `capabilities.explain`. */
  explain(result: MemoryContextBundle, scope: MemoryScope): Promise<MemoryExplanation>;
}

/** The names of the operations of {@link MemoryAdapter}, in contract order. */
export const memoryOperationNames = [
  'capture',
  'upsertRecords',
  'query',
  'list',
  'get',
  'forget',
  'correct',
  'profile',
  'getExtractionJob',
  'listExtractionJobs',
  'retryExtractionJob',
  'explain',
] as const;

/** The name of an operation of {@link MemoryAdapter}, as the audit log, errors and the capability manifest spell it. */
export type MemoryOperationName = (typeof memoryOperationNames)[number];
