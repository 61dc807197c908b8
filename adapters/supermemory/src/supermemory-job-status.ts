import type { MemoryExtractionJobStatus } from '@memplane/core';

/**
 * A document's processing status as an extraction job status. Supermemory shows `queued`,
 * then `extracting`, `chunking`, `embedding` and `indexing` (all `running`), then `done`
 * (`succeeded`) or `failed`. It has no cancelled state. `unknown`, and any status added later,
 * reads as `running`: the document exists and has not reached a final state.
 */
export function mapDocumentStatus(status: string): MemoryExtractionJobStatus {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'done':
      return 'succeeded';
    case 'failed':
      return 'failed';
    default:
      return 'running';
  }
}
