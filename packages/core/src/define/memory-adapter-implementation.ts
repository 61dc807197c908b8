import type { MemoryAdapter } from '../memory-adapter/v1/memory-adapter-v1';

type RequiredOperation = 'capture' | 'upsertRecords' | 'query' | 'list' | 'get' | 'forget';
type OptionalOperation =
  | 'correct'
  | 'profile'
  | 'getExtractionJob'
  | 'listExtractionJobs'
  | 'retryExtractionJob'
  | 'explain';

/**
 * What an adapter author writes and hands to `defineMemoryAdapter`. The required
 * operations must be present; the optional surfaces are present exactly when the
 * matching capability flag is on. Implementations receive requests that are already
 * validated, and may return results without `warnings` or latency, which the wrapper fills.
 */
export type MemoryAdapterImplementation = Pick<MemoryAdapter, 'key' | 'capabilities' | RequiredOperation> &
  Partial<Pick<MemoryAdapter, OptionalOperation>>;
