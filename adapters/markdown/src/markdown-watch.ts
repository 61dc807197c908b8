import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { companiesFolder } from './markdown-paths';
import type { ReconcileReport } from './markdown-repository';

/** Options of `adapter.watch()`. */
export interface MarkdownWatchOptions {
  /** Quiet time after the last change before re-indexing, in milliseconds. Default 1500 (as memsearch and OpenClaw). */
  debounceMs?: number;
  /** Called after each re-index with what it found. */
  onReindex?: (report: ReconcileReport) => void;
  /** Called when a re-index fails; the watcher keeps watching. */
  onError?: (error: unknown) => void;
}

/** A running watcher. */
export interface MarkdownWatcher {
  /** Re-indexes now if a change is waiting, without waiting for the debounce. Resolves with the report, if one ran. */
  flush(): ReconcileReport | undefined;
  /** Stops watching. */
  close(): void;
}

/**
 * Watches `companies/` recursively (Node's `fs.watch`, recursive on Linux since Node 20) and
 * re-indexes after `debounceMs` of quiet. Hidden files (the atomic writer's temporaries) are ignored.
 */
export function watchMarkdownRoot(root: string, reindex: () => ReconcileReport, options: MarkdownWatchOptions = {}): MarkdownWatcher {
  const debounceMs = options.debounceMs ?? 1500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  let watcher: FSWatcher | undefined;

  const run = (): ReconcileReport | undefined => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return undefined;
    dirty = false;
    try {
      const report = reindex();
      options.onReindex?.(report);
      return report;
    } catch (error) {
      options.onError?.(error);
      return undefined;
    }
  };

  const folder = join(root, companiesFolder);
  mkdirSync(folder, { recursive: true });
  watcher = watch(folder, { recursive: true }, (_event, name) => {
    const file = typeof name === 'string' ? name : '';
    if (file.split(/[\\/]/).some((part) => part.startsWith('.'))) return;
    dirty = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  });
  watcher.on('error', (error) => options.onError?.(error));

  return {
    flush: run,
    close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
      watcher = undefined;
    },
  };
}
