/** Something the store wants its owner to know; passed to `onEvent` and kept as result warnings. */
export type MarkdownStoreEvent =
  | {
      /** The index was missing, unreadable or from another version, and was rebuilt from the markdown. */
      type: 'index_rebuilt';
      /** Why it was rebuilt. */
      reason: string;
      /** Records indexed. */
      records: number;
      /** How long the rebuild took, in milliseconds. */
      durationMs: number;
    }
  | {
      /** Files changed on disk (by hand, by git, by another tool) and were read again. */
      type: 'files_reindexed';
      /** The root-relative paths read again. */
      changed: string[];
      /** The root-relative paths whose records were removed because the file is gone. */
      removed: string[];
    }
  | {
      /** A section could not be read and was skipped (it stays in the file untouched). */
      type: 'parse_problem';
      /** The root-relative file. */
      file: string;
      /** The 1-based line. */
      line: number;
      /** What is wrong. */
      message: string;
    };
