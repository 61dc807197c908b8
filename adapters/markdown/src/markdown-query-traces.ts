import type { QueryWord } from '@memplane/rules';

/** How one snippet of a query result was found. */
export interface SnippetTrace {
  /** The BM25 score, when the lexical search found it. */
  lexicalScore?: number;
  /** The lexical rank, 1-based. */
  lexicalRank?: number;
  /** The cosine similarity, when the vector search found it. */
  vectorScore?: number;
  /** The vector rank, 1-based. */
  vectorRank?: number;
  /** The fused score that ordered the result. */
  finalScore: number;
  /** The query's words and their terms; `explain` reports those the record holds (matched terms are not worked out on every query). */
  queryWords: readonly QueryWord[];
}

/** The traces of the most recent queries, by record id, for `explain`. Bounded, oldest dropped first. */
export class QueryTraces {
  private readonly traces = new Map<string, SnippetTrace>();

  constructor(private readonly capacity = 2000) {}

  /** Remembers the trace of a returned record. */
  remember(recordId: string, trace: SnippetTrace): void {
    this.traces.delete(recordId);
    this.traces.set(recordId, trace);
    if (this.traces.size > this.capacity) {
      const oldest = this.traces.keys().next().value;
      if (oldest !== undefined) this.traces.delete(oldest);
    }
  }

  /** The last trace of a record, if it was returned recently. */
  recall(recordId: string): SnippetTrace | undefined {
    return this.traces.get(recordId);
  }
}
