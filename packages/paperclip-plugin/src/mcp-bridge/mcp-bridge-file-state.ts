import { MemoryConflictError } from '@memplane/core';

/** What one client's file holds, as the settings page shows it. */
export type BridgeFileState =
  /** No file yet: installing creates it. */
  | { state: 'absent' }
  /** The file exists without a `memplane` server: installing adds it and keeps the rest. */
  | { state: 'not-installed' }
  /** The plugin's entry, exactly as it would write it now. */
  | { state: 'installed' }
  /** The plugin's entry, from another config (another data folder or command): installing replaces it. */
  | { state: 'outdated' }
  /** A file the plugin must not touch: not valid JSON or TOML, or a `memplane` server it did not write. */
  | { state: 'conflict'; reason: string };

/** How the bridge reads, merges and unmerges one file format. */
export interface BridgeFileFormat<Entry> {
  /** The state of `text` (undefined: no file) against the entry the plugin would write. */
  inspect(text: string | undefined, entry: Entry): BridgeFileState;
  /** The new text with the plugin's entry added or replaced and everything else kept. Throws `MemoryConflictError` on a conflict. */
  install(text: string | undefined, entry: Entry): string;
  /** The text without the plugin's entry, or undefined when it has none. Throws `MemoryConflictError` when the file cannot be read. */
  remove(text: string | undefined): string | undefined;
}

/** A conflict, refused before anything is written. */
export const conflict = (file: string, reason: string) => new MemoryConflictError({ message: `${file}: ${reason}; nothing was written` });
