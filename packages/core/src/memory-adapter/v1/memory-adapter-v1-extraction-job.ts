import type { MemoryHookKind, MemorySourceRef } from './memory-adapter-v1-source';
import type { MemoryUsage } from './memory-adapter-v1-usage';
import type { MemoryWarning } from './memory-adapter-v1-warning';

/** The status of an extraction job. `succeeded`, `failed` and `cancelled` are final. */
export type MemoryExtractionJobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Asynchronous extraction work started by a capture. */
export interface MemoryExtractionJob {
  /** The provider's id of the job. */
  providerJobId: string;
  /** Where the job stands. */
  status: MemoryExtractionJobStatus;
  /** The hook that caused the capture, if any. */
  hookKind?: MemoryHookKind;
  /** The source of the captured residue. */
  source?: MemorySourceRef;
  /** Why the job failed, for failed jobs. */
  error?: string;
  /** When the job was submitted (ISO 8601). */
  submittedAt?: string;
  /** When the job started running (ISO 8601). */
  startedAt?: string;
  /** When the job reached a final status (ISO 8601). */
  finishedAt?: string;
}

/** One page of extraction jobs. */
export interface MemoryExtractionJobPage {
  /** The jobs of this page. */
  items: MemoryExtractionJob[];
  /** The opaque cursor of the next page. Absent on the last page. */
  nextCursor?: string;
  /** Usage of the provider calls made. */
  usage?: MemoryUsage[];
  /** Ignored options and lossy mappings. */
  warnings?: MemoryWarning[];
}

/** The statuses after which a job no longer changes. */
export const finalExtractionJobStatuses: ReadonlyArray<MemoryExtractionJobStatus> = [
  'succeeded',
  'failed',
  'cancelled',
];
