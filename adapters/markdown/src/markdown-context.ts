import type { CursorCodec, MemoryUsage, MemoryWarning } from '@memplane/core';
import type { MarkdownExtractionJobs } from './markdown-extraction-jobs';
import type { MemoryExtractor } from './markdown-extractor';
import type { MarkdownRepository } from './markdown-repository';
import type { ResolvedMarkdownSettings } from './markdown-settings';
import type { MarkdownVectorSearch } from './markdown-vector-search';
import type { QueryTraces } from './markdown-query-traces';

/** Everything the operations of one adapter work with. */
export interface MarkdownContext {
  /** The settings, with defaults. */
  settings: ResolvedMarkdownSettings;
  /** The markdown files and their index. */
  repository: MarkdownRepository;
  /** The cursor codec. */
  codec: CursorCodec;
  /** The extractor of captured residue. */
  extractor: MemoryExtractor;
  /** Extraction jobs, when the extractor is asynchronous. */
  jobs?: MarkdownExtractionJobs;
  /** Vector search, when an embedder is configured. */
  vectors?: MarkdownVectorSearch;
  /** Recent query traces, for `explain`. */
  traces: QueryTraces;
}

/** A local usage entry: the adapter did the work itself, so no counter is reported. */
export function localUsage(provider: string, latencyMs: number, details?: Record<string, unknown>): MemoryUsage {
  return { provider, attributionMode: 'untracked', latencyMs, ...(details === undefined ? {} : { details }) };
}

/** Takes the warnings the store collected (index rebuilt, files re-read), so each is reported once. */
export function takeWarnings(context: MarkdownContext): MemoryWarning[] {
  return context.repository.pendingWarnings.splice(0);
}
