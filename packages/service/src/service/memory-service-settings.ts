import { parseInput, type MemoryProviderDefinition } from '@memplane/core';
import { z } from 'zod';
import type { SecretEnvironmentAllowList, SecretResolver } from '../bindings/secret-reference';
import type { MemoryDestinationPolicy } from '../security/provider-destinations';
import type { MemoryAuthorize } from '../policy/memory-policy';
import type { MemoryServiceStore } from '../store/memory-service-store';
import type { MemoryJobQueue } from '../queue/memory-job-queue';
import type { MemoryCostEventRecorder } from '../runtime/usage-attribution';
import type { MemoryProviderDeadlines } from '../runtime/provider-deadline';
import type { MemoryAgentIdentityPolicy } from '../runtime/agent-identity';
import type { MemoryBinding } from '../bindings/memory-binding';

/** Caps of the pre-run preamble. */
export interface MemoryHydrationLimits {
  /** The most snippets queried and shown. Default 8. */
  maxSnippets: number;
  /** The most characters of the whole preamble, header included. Default 4000. */
  maxCharacters: number;
  /** The most characters of one snippet; longer ones are cut with `…`. Default 600. */
  maxSnippetCharacters: number;
}

/** The age in days below which no prune deletes an operation log entry, unless `operationLog.retentionFloorDays` says otherwise. */
export const defaultRetentionFloorDays = 7;

/** How many operation log entries the service writes in one batch unless `operationLog.batchSize` says otherwise. */
export const defaultOperationLogBatchSize = 256;

/** Settings of {@link createMemoryService}. Every setting is optional. */
export interface MemoryServiceSettings {
  /** Where bindings and logs live. Default: a SQLite store in memory (`createSqliteMemoryServiceStore()`). */
  store?: MemoryServiceStore;
  /** The policy hook. Default {@link defaultAuthorize}. */
  authorize?: MemoryAuthorize;
  /**
   * The providers bindings may name, as their packages describe them: each adapter package's
   * `./provider` export (`import { provider } from '@memplane/markdown/provider'`), or
   * `loadProviderPackage(name)`. The service has no provider of its own, so without this it
   * can bind nothing until an operator registers one (`service.providers.register`). Each is
   * checked with core's `defineMemoryProvider` before the service opens anything.
   */
  providers?: readonly MemoryProviderDefinition[];
  /**
   * Resolves `{ $secret: { key } }` references for one company (it receives the company id and
   * decides: throwing refuses). Every key reference is resolved once when a binding is created
   * or changed, so a refusal is a typed error then, and logged. Default: none, so key
   * references are refused.
   */
  secretResolver?: SecretResolver;
  /** The environment `{ $secret: { env } }` references read. Default `process.env`. */
  environment?: Record<string, string | undefined>;
  /**
   * Which environment variables each company's `{ $secret: { env } }` references may read: a map
   * from company id to names, or a function of the company id. Default: none, so every env
   * reference is refused (`MemoryBindingRefusedError`, rule `secret.environment`, logged in the
   * company's activity log).
   */
  secretEnvironment?: SecretEnvironmentAllowList;
  /**
   * Where hosted providers may be reached: an allow-list of endpoints per provider id (default:
   * the official endpoints each provider's description declares) and whether loopback and
   * private addresses may be (default: no). Checked when a binding is saved and whenever its
   * adapter is built.
   */
  destinations?: MemoryDestinationPolicy;
  /**
   * A folder for local providers (those whose description names a `localRootField`, such as
   * markdown's `root`): a binding without that field keeps its files under
   * `<dataDirectory>/<providerId>/<company>/<binding>`, and any root must stay inside
   * `<dataDirectory>/<providerId>/<company>`. Default: none, so bindings of local providers are refused.
   */
  dataDirectory?: string;
  /** The HMAC secret of explorer cursors; share it between processes serving the same store. Default: random per service. */
  cursorSecret?: string | Uint8Array;
  /** The clock of every timestamp. Default: the real time. */
  now?: () => Date;
  /** Makes ids such as `op_…`; tests pass a counter. Default: time-ordered ids, `<prefix>_<time><sequence><48 random bits>`. */
  createId?: (prefix: string) => string;
  /**
   * Operation log writes. `batchSize` 1 writes each entry before the operation returns; larger
   * batches are written when full or at the end of the current event-loop turn, whichever comes
   * first. Default 256: the turn's end flushes anyway, so the size only caps how many entries one
   * busy turn holds, and a larger batch spreads each write's fixed cost (a commit, a round trip)
   * over more entries. `retentionDays` is the retention window: workers prune older entries every
   * `retentionIntervalMs` (default one hour), and `pruneOperationLog` applies it on demand.
   * Default: no window, nothing is pruned. `retentionFloorDays` (default 7) is the age below
   * which no prune ever deletes an entry, whoever asks; `retentionDays` may not be below it.
   */
  operationLog?: { batchSize?: number; maxPendingEntries?: number; retentionDays?: number; retentionIntervalMs?: number; retentionFloorDays?: number };
  /**
   * Where hook deliveries queued with `hooks.enqueue`, extraction polls and retention passes go.
   * Default: an in-process queue (`createInProcessJobQueue()`) whose worker runs in this service.
   * Pass a durable queue (`createPgBossJobQueue` from `@memplane/service/pg-boss`) to share the
   * work between worker processes, each calling `service.startWorker()`.
   */
  queue?: MemoryJobQueue;
  /**
   * Polling of extraction jobs a capture left queued or running: the first poll after `delayMs`
   * (default 5000), then doubling (at most ten minutes apart), at most `maxPolls` times
   * (default 20) while jobs stay pending.
   */
  extractionPolling?: { delayMs?: number; maxPolls?: number };
  /** Hook delivery: per-delivery timeout in milliseconds (default 5000) and attempts for retryable failures (default 2). */
  hooks?: { timeoutMs?: number; maxAttempts?: number };
  /** Caps of the pre-run preamble. */
  hydration?: Partial<MemoryHydrationLimits>;
  /**
   * Mirrors each cost event the service records (directly billed usage with counters) into the
   * host's ledger, and returns the id it got there (kept as `externalId`). The service's own
   * `cost_events` are written either way.
   */
  recordCostEvent?: MemoryCostEventRecorder;
  /** Told about failures of background work (an operation-log batch that could not be written). Default: counted only. */
  onBackgroundError?: (error: unknown, task: string) => void;
  /**
   * Service-side deadlines of provider calls (runtime operations, agent tools, hooks, extraction
   * jobs): `defaultMs` (default 30000) and `forBinding(binding)` for an operator's choice per
   * binding. A call past its deadline fails with `MemoryTimeoutError`; its late result is discarded.
   */
  deadlines?: MemoryProviderDeadlines;
  /** The agent identity policy: what an agent may read beyond its own records. Default `{ reads: 'own-and-shared' }`. */
  agentIdentity?: MemoryAgentIdentityPolicy;
  /**
   * Results. `trustProviderSummaries(binding)` says whether a binding's provider summaries (a
   * query's `profileSummary`, a profile's `summary`) are passed on; they cannot be checked
   * against the scope, so by default they are withheld with a warning.
   */
  results?: { trustProviderSummaries?: (binding: MemoryBinding) => boolean };
}

const functionSchema = (what: string) => z.custom<(...values: never[]) => unknown>((value) => typeof value === 'function', `must be ${what}`);
const positiveInteger = (maximum: number) => z.number().int().min(1).max(maximum);

const settingsSchema = z.strictObject({
  store: z
    .custom<MemoryServiceStore>(
      (value) => typeof value === 'object' && value !== null && typeof (value as MemoryServiceStore).resolveBinding === 'function',
      'must be a MemoryServiceStore',
    )
    .optional(),
  authorize: functionSchema('a function (actor, operation, scope)').optional(),
  // Each definition is checked in full by the registry (defineMemoryProvider), naming its field.
  providers: z.array(z.custom<MemoryProviderDefinition>((value) => typeof value === 'object' && value !== null, 'must be a provider definition')).optional(),
  secretResolver: functionSchema('a function (key, context)').optional(),
  environment: z.record(z.string(), z.string().optional()).optional(),
  secretEnvironment: z
    .union([z.record(z.string(), z.array(z.string().min(1).max(256)).max(10_000)), functionSchema('a function (companyId) returning variable names')])
    .optional(),
  destinations: z
    .strictObject({
      endpoints: z.record(z.string(), z.array(z.url({ protocol: /^https?$/ }).or(z.string().regex(/^https?:\/\/[^\s/]*\*[^\s]*$/, 'must be a URL'))).max(1000)).optional(),
      allowPrivateNetworks: z.boolean().optional(),
    })
    .optional(),
  dataDirectory: z.string().min(1).max(4096).optional(),
  cursorSecret: z.union([z.string().min(16, 'must be at least 16 characters'), z.instanceof(Uint8Array)]).optional(),
  now: functionSchema('a function returning a Date').optional(),
  createId: functionSchema('a function (prefix) returning an id').optional(),
  operationLog: z
    .strictObject({
      batchSize: positiveInteger(10_000).optional(),
      maxPendingEntries: positiveInteger(10_000_000).optional(),
      retentionDays: z.number().positive().max(36_500).optional(),
      retentionIntervalMs: positiveInteger(7 * 24 * 3600 * 1000).optional(),
      retentionFloorDays: z.number().min(0).max(36_500).optional(),
    })
    .refine(
      (log) => log.retentionDays === undefined || log.retentionDays >= (log.retentionFloorDays ?? defaultRetentionFloorDays),
      { message: 'must not be below the retention floor (retentionFloorDays, default 7)', path: ['retentionDays'] },
    )
    .optional(),
  queue: z
    .custom<MemoryJobQueue>(
      (value) => typeof value === 'object' && value !== null && typeof (value as MemoryJobQueue).enqueue === 'function',
      'must be a MemoryJobQueue',
    )
    .optional(),
  extractionPolling: z
    .strictObject({ delayMs: z.number().int().min(0).max(3_600_000).optional(), maxPolls: z.number().int().min(0).max(1000).optional() })
    .optional(),
  hooks: z.strictObject({ timeoutMs: positiveInteger(600_000).optional(), maxAttempts: positiveInteger(10).optional() }).optional(),
  hydration: z
    .strictObject({
      maxSnippets: positiveInteger(100).optional(),
      maxCharacters: positiveInteger(1_000_000).optional(),
      maxSnippetCharacters: positiveInteger(100_000).optional(),
    })
    .optional(),
  recordCostEvent: functionSchema('a function (event)').optional(),
  onBackgroundError: functionSchema('a function (error, task)').optional(),
  deadlines: z
    .strictObject({ defaultMs: positiveInteger(3_600_000).optional(), forBinding: functionSchema('a function (binding)').optional() })
    .optional(),
  agentIdentity: z.strictObject({ reads: z.enum(['own', 'own-and-shared', 'company']).optional() }).optional(),
  results: z.strictObject({ trustProviderSummaries: functionSchema('a function (binding)').optional() }).optional(),
});

/** Validates the settings; a bad one throws `MemoryValidationError` naming it (`settings.hooks.timeoutMs`). */
export function validateMemoryServiceSettings(settings: MemoryServiceSettings): void {
  parseInput(settingsSchema, settings, 'memory service settings', 'settings');
}
