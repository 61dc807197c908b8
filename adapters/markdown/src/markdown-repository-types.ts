import type { MarkdownStoreEvent } from './markdown-events';

/** How the repository is opened. */
export interface RepositoryOptions {
  /** The markdown root. */
  root: string;
  /** The most sections of one kind per file before a new file is started. */
  sectionsPerFile: number;
  /** How long to wait for another process's write lock, in milliseconds. */
  lockTimeoutMs: number;
  /** Whether neighbour windows are indexed. */
  neighbourWindows: boolean;
  /** Receives store events. */
  onEvent?: (event: MarkdownStoreEvent) => void;
  /** Receives progress of long work (reindexing files). */
  onProgress?: (progress: MarkdownProgress) => void;
}

/** Progress of long work, for progress bars. */
export interface MarkdownProgress {
  /** What is running. */
  phase: 'reindex';
  /** Files done. */
  done: number;
  /** Files to do. */
  total: number;
}

/** What a reconcile found. */
export interface ReconcileReport {
  /** Files read again. */
  changed: string[];
  /** Files gone from disk. */
  removed: string[];
  /** Problems found in the files read. */
  problems: Array<{ file: string; line: number; message: string }>;
}
