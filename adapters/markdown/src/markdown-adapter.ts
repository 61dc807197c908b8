import {
  createCursorCodec,
  defineMemoryAdapter,
  MemoryNotFoundError,
  normalizeScope,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
} from '@memplane/core';
import { localUsage, takeWarnings, type MarkdownContext } from './markdown-context';
import { loadCursorSecret } from './markdown-cursor-secret';
import { guardOperations, toMemoryError } from './markdown-errors';
import { MarkdownExtractionJobs } from './markdown-extraction-jobs';
import { QueryTraces } from './markdown-query-traces';
import { createReadOperations } from './markdown-read-operations';
import { MarkdownRepository, type ReconcileReport } from './markdown-repository';
import { createRuleBasedExtractor } from './markdown-rule-extractor';
import { resolveMarkdownSettings, type MarkdownAdapterSettings } from './markdown-settings';
import { markdownAdapterKey } from './markdown-snippet';
import { MarkdownVectorSearch } from './markdown-vector-search';
import { watchMarkdownRoot, type MarkdownWatcher, type MarkdownWatchOptions } from './markdown-watch';
import { createWriteOperations } from './markdown-write-operations';

/** Counts of what a root holds, from its index. */
export interface MarkdownStats {
  /** Record sections (every status, history included). */
  records: number;
  /** Captured resources. */
  resources: number;
  /** Indexed markdown files. */
  files: number;
}

/** The markdown adapter: the memory contract plus the local maintenance surface. */
export interface MarkdownAdapter extends MemoryAdapter {
  /** The absolute or relative root it was opened on. */
  readonly root: string;
  /** Reads again the markdown files changed on disk since the index saw them (hand edits, git checkouts). */
  reindex(): ReconcileReport;
  /** Drops the index and rebuilds it from the markdown alone. Returns the records indexed. */
  rebuildIndex(): number;
  /** Watches the root and re-indexes changed files, debounced. Close the watcher when done. */
  watch(options?: MarkdownWatchOptions): MarkdownWatcher;
  /** Resolves when every extraction job this adapter started has finished. */
  whenIdle(): Promise<void>;
  /** Counts of the index. */
  stats(): MarkdownStats;
  /** Closes the index; later calls fail. */
  close(): void;
}

/**
 * Creates the local markdown adapter over `root`: markdown files are the source of truth, a
 * SQLite FTS5 index (plus sqlite-vec vectors with an embedder) is derived from them, opened or
 * rebuilt here. Throws `MemoryValidationError` for bad settings, and a memplane error (a retryable
 * `MemoryTimeoutError` when another process holds the index's lock too long) when the root cannot
 * be opened.
 */
export function createMarkdownAdapter(settings: MarkdownAdapterSettings): MarkdownAdapter {
  const resolved = resolveMarkdownSettings(settings);
  const repository = MarkdownRepository.open({
    root: resolved.root,
    sectionsPerFile: resolved.sectionsPerFile,
    lockTimeoutMs: resolved.lockTimeoutMs,
    neighbourWindows: resolved.neighbourWindows,
    ...(resolved.onEvent === undefined ? {} : { onEvent: resolved.onEvent }),
    ...(resolved.onProgress === undefined ? {} : { onProgress: resolved.onProgress }),
  });
  const extractor = resolved.extractor ?? createRuleBasedExtractor({ assistantTurns: resolved.extraction.assistantTurns });
  const embedder = resolved.embedder;
  const vectors = embedder === undefined ? undefined : openingStep(() => repository.close(), resolved, 'open the embedding cache', () => new MarkdownVectorSearch(repository, embedder, resolved.fusion));
  const secret = resolved.cursorSecret ?? openingStep(() => { vectors?.close(); repository.close(); }, resolved, 'read the cursor secret', () => loadCursorSecret(resolved.root, (work) => repository.write(work)));
  const context: MarkdownContext = {
    settings: resolved,
    repository,
    codec: createCursorCodec({ secret, now: () => Date.parse(resolved.now()) }),
    extractor,
    traces: new QueryTraces(),
    ...(vectors === undefined ? {} : { vectors }),
  };
  const jobs = extractor.mode === 'async' ? new MarkdownExtractionJobs(repository, extractor, resolved.now, vectors) : undefined;
  if (jobs !== undefined) context.jobs = jobs;
  const asynchronous = jobs !== undefined;
  const capabilities: MemoryAdapterCapabilities = {
    correction: true,
    profile: true,
    metadataFilter: true,
    explain: true,
    providerManagedExtraction: true,
    providerNativeBrowse: true,
    asyncExtraction: asynchronous,
    listExtractionJobs: asynchronous,
    retryExtractionJob: asynchronous,
    // Everything else runs on the local files and index; only the model endpoints are remote.
    remoteOperations: [
      ...(vectors !== undefined || asynchronous ? (['capture'] as const) : []),
      ...(vectors !== undefined ? (['upsertRecords', 'query', 'correct'] as const) : []),
      ...(asynchronous ? (['retryExtractionJob'] as const) : []),
    ],
  };
  const jobOperations = jobs === undefined ? {} : createJobOperations(context, jobs);
  // Whatever SQLite or the file system throws reaches the caller as a memplane error.
  const failure = { lockTimeoutMs: resolved.lockTimeoutMs, root: resolved.root };
  const adapter = defineMemoryAdapter({
    key: markdownAdapterKey,
    capabilities,
    ...guardOperations({ ...createWriteOperations(context), ...createReadOperations(context), ...jobOperations }, failure),
  });
  const maintenance = guardOperations(
    {
      reindex: () => repository.write(() => repository.reconcile()),
      rebuildIndex: () => repository.rebuild('rebuild requested'),
      stats: () => repository.index.counts(),
    },
    failure,
  );
  return {
    ...adapter,
    ...maintenance,
    root: resolved.root,
    watch: (options = {}) => {
      const onError = options.onError;
      // The watcher's own errors (fs.watch) reach onError as memplane errors too.
      const mapped = onError === undefined ? options : { ...options, onError: (error: unknown) => onError(toMemoryError(error, { ...failure, operation: 'watch the markdown root' })) };
      return watchMarkdownRoot(resolved.root, () => repository.write(() => repository.reconcile()), mapped);
    },
    whenIdle: async () => jobs?.whenIdle(),
    close() {
      vectors?.close();
      repository.close();
    },
  };
}

/** Runs one step of opening after the repository is open: a failure closes what is open (`close`) and is thrown as a memplane error. */
function openingStep<Result>(close: () => void, settings: { root: string; lockTimeoutMs: number }, operation: string, step: () => Result): Result {
  try {
    return step();
  } catch (error) {
    close();
    throw toMemoryError(error, { operation, lockTimeoutMs: settings.lockTimeoutMs, root: settings.root });
  }
}

function createJobOperations(context: MarkdownContext, jobs: MarkdownExtractionJobs): Pick<MemoryAdapter, 'getExtractionJob' | 'listExtractionJobs' | 'retryExtractionJob'> {
  return {
    async getExtractionJob(providerJobId, scope) {
      const found = jobs.get(providerJobId, normalizeScope(scope));
      return { job: found?.job ?? null, usage: [localUsage(markdownAdapterKey, 0), ...(found?.usage ?? [])] };
    },
    async listExtractionJobs(scope, cursor) {
      const binding = { scope: normalizeScope(scope), listing: 'extraction-jobs' };
      const afterId = cursor === undefined ? undefined : (context.codec.decode(cursor, binding) as string);
      const page = jobs.list(normalizeScope(scope), typeof afterId === 'string' ? afterId : undefined, 50);
      const last = page.jobs.at(-1);
      return {
        items: page.jobs,
        ...(page.hasMore && last !== undefined ? { nextCursor: context.codec.encode(last.providerJobId, binding) } : {}),
        usage: [localUsage(markdownAdapterKey, 0)],
        warnings: takeWarnings(context),
      };
    },
    async retryExtractionJob(providerJobId, scope) {
      const job = jobs.retry(providerJobId, normalizeScope(scope));
      if (job === undefined) throw new MemoryNotFoundError({ resourceId: providerJobId });
      return { job, usage: [localUsage(markdownAdapterKey, 0)], warnings: takeWarnings(context) };
    },
  };
}
