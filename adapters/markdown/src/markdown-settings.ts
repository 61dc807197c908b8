import { MemoryConfigurationError, MemoryValidationError, parseInput } from '@memplane/core';
import { assistantTurnsSchema, type AssistantTurns } from '@memplane/rules';
import { z } from 'zod';
import type { MarkdownStoreEvent } from './markdown-events';
import type { MarkdownProgress } from './markdown-repository';
import type { MemoryExtractor } from './markdown-extractor';
import type { MarkdownEmbedder } from './markdown-embedder';
import { defaultLexicalWeights, type LexicalWeights } from './markdown-search';

/** How lexical and vector results are combined when an embedder is configured. */
export type FusionMethod = 'rrf' | 'weighted';

/** Settings of {@link createMarkdownAdapter}. Only `root` is required. */
export interface MarkdownAdapterSettings {
  /** The folder that holds the markdown (the source of truth) and `.memplane/` (the derived index). Created if missing. */
  root: string;
  /**
   * Turns captured residue into memory items. Default: the built-in rule-based extractor, which
   * runs inside `capture`. An `async` extractor (such as `createOpenAICompatibleExtractor`) runs as
   * extraction jobs, and turns on `asyncExtraction`, `listExtractionJobs` and `retryExtractionJob`.
   */
  extractor?: MemoryExtractor;
  /**
   * How the built-in rule extractor reads captured conversations (a payload object
   * `{ messages: [{ role, content }] }`). Not with `extractor`: give that extractor its own
   * options, such as `createRuleBasedExtractor({ assistantTurns })`.
   */
  extraction?: MarkdownExtractionSettings;
  /**
   * Embeds records for semantic search (stored with sqlite-vec, searched exactly inside the
   * company, fused with BM25). Default: none, lexical search only.
   */
  embedder?: MarkdownEmbedder;
  /**
   * How BM25 and vector results are fused when an embedder is set. Default `weighted` (0.7 cosine +
   * 0.3 normalised BM25): it beat RRF on LoCoMo dev with the benchmark's hashing embedder (R@10 57.4
   * vs 52.6, BENCHMARKS.md). Re-run `markdown-locomo` with your embedding model to choose for it.
   */
  fusion?: FusionMethod;
  /** Weights of the lexical score: the record text (BM25, default 1), the best window of neighbouring records (default 3) and metadata strings (BM25, default 0.5). */
  lexicalWeights?: Partial<LexicalWeights>;
  /**
   * Index overlapping windows of neighbouring records and add the best window's score to each
   * record's (see `lexicalWeights.context`). Default true: it takes LoCoMo R@10 from 63.2 to 77.0, and
   * costs under a tenth of the write time (windows are rows of lengths, not a second full-text index). Changing it rebuilds the index on open.
   */
  neighbourWindows?: boolean;
  /** The most records (or resources) per markdown file before a new file is started. Default 1000. */
  sectionsPerFile?: number;
  /**
   * How long opening or a write waits for another process's lock (a write, a reindex, a rebuild),
   * in milliseconds. Default 10000. Past it, the call throws a retryable `MemoryTimeoutError`
   * before writing anything.
   */
  lockTimeoutMs?: number;
  /**
   * The HMAC secret of list and job cursors. Default: a random secret stored in
   * `.memplane/cursor-secret`, so every process over the same root accepts the same cursors. A
   * damaged file (empty, not 64 hex characters) is replaced, which invalidates cursors signed with
   * the old secret.
   */
  cursorSecret?: string | Uint8Array;
  /** The clock, for timestamps, todo expiry and cursor ages. Default: the real time. */
  now?: () => Date;
  /** Receives store events: index rebuilt, files re-read, unreadable sections. */
  onEvent?: (event: MarkdownStoreEvent) => void;
  /** Receives progress of long work (a reindex or rebuild), for progress bars. */
  onProgress?: (progress: MarkdownProgress) => void;
}

/** How the built-in rule extractor reads captured conversations. */
export interface MarkdownExtractionSettings {
  /**
   * What happens to the assistant's turns (role `assistant`, `ai` or `model`, any case): `skip`
   * (default) extracts nothing from them, so its greetings and offers of help never become
   * memories; `keep` extracts from them like any other turn. The residue keeps every turn either
   * way, and named speakers ("Caroline") are never assistants.
   */
  assistantTurns?: AssistantTurns;
}

const functionSchema = (what: string) => z.custom<(...values: never[]) => unknown>((value) => typeof value === 'function', `must be ${what}`);

/**
 * The settings schema of {@link createMarkdownAdapter}; unknown keys are refused. The provider
 * description (`@memplane/markdown/provider`) derives its binding config from it.
 */
export const markdownAdapterSettingsSchema = z.strictObject({
  root: z.string().min(1, 'must not be empty').refine((value) => !value.includes('\u0000'), 'must not contain NUL'),
  extractor: z
    .custom<MemoryExtractor>(
      (value) => typeof value === 'object' && value !== null && typeof (value as MemoryExtractor).extract === 'function' && ['sync', 'async'].includes((value as MemoryExtractor).mode),
      'must be an extractor with mode and extract()',
    )
    .optional(),
  extraction: z.strictObject({ assistantTurns: assistantTurnsSchema.optional() }).optional(),
  embedder: z
    .custom<MarkdownEmbedder>(
      (value) => typeof value === 'object' && value !== null && typeof (value as MarkdownEmbedder).embed === 'function' && Number.isInteger((value as MarkdownEmbedder).dimensions),
      'must be an embedder with dimensions and embed()',
    )
    .optional(),
  fusion: z.enum(['rrf', 'weighted']).optional(),
  lexicalWeights: z.strictObject({ body: z.number().min(0).optional(), context: z.number().min(0).optional(), metadata: z.number().min(0).optional() }).optional(),
  neighbourWindows: z.boolean().optional(),
  sectionsPerFile: z.number().int().min(1).max(100_000).optional(),
  lockTimeoutMs: z.number().int().min(0).max(600_000).optional(),
  cursorSecret: z.union([z.string().min(1), z.instanceof(Uint8Array)]).optional(),
  now: functionSchema('a function returning a Date').optional(),
  onEvent: functionSchema('a function').optional(),
  onProgress: functionSchema('a function').optional(),
});

/** The settings with defaults applied. */
export interface ResolvedMarkdownSettings {
  root: string;
  extractor?: MemoryExtractor;
  extraction: { assistantTurns: AssistantTurns };
  embedder?: MarkdownEmbedder;
  fusion: FusionMethod;
  lexicalWeights: LexicalWeights;
  neighbourWindows: boolean;
  sectionsPerFile: number;
  lockTimeoutMs: number;
  cursorSecret?: string | Uint8Array;
  now: () => string;
  onEvent?: (event: MarkdownStoreEvent) => void;
  onProgress?: (progress: MarkdownProgress) => void;
}

/** Validates the settings; a bad one throws `MemoryValidationError` naming it, such as `settings.root`. */
export function resolveMarkdownSettings(settings: MarkdownAdapterSettings): ResolvedMarkdownSettings {
  const valid = parseInput(markdownAdapterSettingsSchema, settings, 'markdown adapter settings', 'settings');
  if (valid.extraction !== undefined && settings.extractor !== undefined) {
    throw new MemoryValidationError({
      target: 'markdown adapter settings',
      issues: [{ path: 'settings.extraction', message: 'configures the built-in rule extractor; with extractor set, give that extractor its options (createRuleBasedExtractor({ assistantTurns }))' }],
    });
  }
  const clock = settings.now ?? (() => new Date());
  return {
    root: valid.root,
    ...(settings.extractor === undefined ? {} : { extractor: settings.extractor }),
    extraction: { assistantTurns: valid.extraction?.assistantTurns ?? 'skip' },
    ...(settings.embedder === undefined ? {} : { embedder: settings.embedder }),
    fusion: valid.fusion ?? 'weighted',
    lexicalWeights: { ...defaultLexicalWeights, ...valid.lexicalWeights, ...(valid.neighbourWindows === false ? { context: 0 } : {}) },
    neighbourWindows: valid.neighbourWindows ?? true,
    sectionsPerFile: valid.sectionsPerFile ?? 1000,
    lockTimeoutMs: valid.lockTimeoutMs ?? 10_000,
    ...(valid.cursorSecret === undefined ? {} : { cursorSecret: valid.cursorSecret }),
    now: () => {
      const value = clock();
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
        throw new MemoryConfigurationError({ message: 'settings.now must return a valid Date.' });
      }
      return value.toISOString();
    },
    ...(settings.onEvent === undefined ? {} : { onEvent: settings.onEvent }),
    ...(settings.onProgress === undefined ? {} : { onProgress: settings.onProgress }),
  };
}
