import type { MarkdownStoreEvent } from './markdown-events';

/** A file that could not be parsed, as `parse_problem` reports it. */
export interface MarkdownCliProblem {
  /** The root-relative file. */
  file: string;
  /** The 1-based line. */
  line: number;
  /** What is wrong. */
  message: string;
}

/**
 * Everything the store reported while the CLI ran: what opening the root reconciled (a rebuild,
 * files read again or dropped), what an explicit reindex added, and the parse problems of both.
 * The CLI reports from these events, so `reindex` tells what really happened even when opening
 * already did the work.
 */
export class MarkdownCliEvents {
  /** The rebuild, when the index was rebuilt. */
  rebuilt: { reason: string; records: number; durationMs: number } | undefined;
  /** Files read again, once each, in the order they were reported. */
  readonly changed = new Set<string>();
  /** Files whose records were dropped because the file is gone. */
  readonly removed = new Set<string>();
  /** Sections that could not be read, once each. */
  readonly problems: MarkdownCliProblem[] = [];
  private readonly seenProblems = new Set<string>();

  /** Records one event; pass it to `onEvent`. */
  record(event: MarkdownStoreEvent): void {
    if (event.type === 'index_rebuilt') {
      this.rebuilt = { reason: event.reason, records: event.records, durationMs: event.durationMs };
    } else if (event.type === 'files_reindexed') {
      for (const path of event.changed) this.changed.add(path);
      for (const path of event.removed) this.removed.add(path);
    } else {
      const key = `${event.file}\u0000${event.line}\u0000${event.message}`;
      if (this.seenProblems.has(key)) return;
      this.seenProblems.add(key);
      this.problems.push({ file: event.file, line: event.line, message: event.message });
    }
  }

  /** The reindex report: the rebuild, the files read again or dropped, and the parse problems. */
  toJSON() {
    return {
      ...(this.rebuilt === undefined ? {} : { rebuilt: { reason: this.rebuilt.reason, records: this.rebuilt.records } }),
      changed: [...this.changed],
      removed: [...this.removed],
      problems: this.problems,
    };
  }
}
