import { resolve } from 'node:path';
import { createCursorCodec, MemoryConfigurationError, type MemoryProviderDefinition } from '@memplane/core';
import { createOperationLogWriter } from '../audit/operation-log-writer';
import { createUsageSettlements } from '../quota/usage-settlements';
import { createMemoryCostLedger, type MemoryCostLedger } from '../costs/memory-cost-ledger';
import { createInProcessJobQueue } from '../queue/in-process-job-queue';
import type { MemoryJobQueue } from '../queue/memory-job-queue';
import { pruneOperationLog, type MemoryPruneReport, type MemoryPruneRequest } from '../retention/prune-operation-log';
import { createMemoryControlPlane, type MemoryControlPlane } from '../control/memory-control-plane';
import { createMemoryExplorer, type MemoryExplorer } from '../explorer/memory-explorer';
import { createMemoryHooks, type MemoryHooks } from '../hooks/memory-hooks';
import { defaultAuthorize } from '../policy/memory-policy';
import { createAdapterCache } from '../providers/adapter-cache';
import type { MemoryProviderConfigDescription, MemoryProviderDescription } from '../providers/memory-provider-description';
import { createProviderRegistry } from '../providers/provider-registry';
import { parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import { createMemoryRuntime, type MemoryRuntime } from '../runtime/memory-runtime';
import type { MemoryServiceStore } from '../store/memory-service-store';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { defaultOperationLogBatchSize, validateMemoryServiceSettings, type MemoryServiceSettings } from './memory-service-settings';
import type { MemoryServiceMetrics, ServiceInternals } from './service-internals';
import { startServiceWorker, type MemoryServiceWorker, type MemoryServiceWorkerOptions } from './memory-service-worker';
import { createSortableIdFactory } from './sortable-id';
import { registerProvider, type MemoryProviderRegistration } from '../providers/register-provider';
import { createDestinationCheck } from '../security/provider-destinations';
import { createRedactingStore } from '../security/redacting-store';
import { createSecretRedactor } from '../security/secret-redactor';
import { defaultRetentionFloorDays } from './memory-service-settings';
import { deadlineOf, defaultProviderDeadlineMs } from '../runtime/provider-deadline';
import { defaultAgentReadReach } from '../runtime/agent-identity';
import { assertQueueOutlivesDeliveries } from '../queue/queue-expiry-check';

/** The providers of a service: list them, describe their configs, register more. */
export interface MemoryServiceProviders {
  /** Every provider bindings can name: those of `settings.providers` (origin `configured`) and those registered since (`registered`). */
  list(): MemoryProviderDescription[];
  /** A provider with its config's JSON Schema, an example (secrets as references) and its secret fields; undefined for an unknown id. */
  describe(providerId: string): MemoryProviderConfigDescription | undefined;
  /**
   * Registers a provider definition (`provider` of an adapter package's `./provider` subpath,
   * or `loadProviderPackage(name)`), checked with core's `defineMemoryProvider`. With
   * `replace`, replaces a provider and rebuilds the adapters of its bindings on their next
   * use. An operator action (`providers.write`): the context's actor must be an operator
   * granted the context's company, or the system; the change is recorded in that company's
   * activity log.
   */
  register(context: MemoryCallContext, definition: MemoryProviderDefinition, options?: MemoryProviderRegistration): Promise<void>;
}

/**
 * The memory service: the platform side of memory. It owns bindings, resolution, policy,
 * hooks, provenance and attribution; providers own extraction, ranking and storage.
 */
export interface MemoryService {
  /** The control plane for one caller: bindings, targets, resolution, activity. */
  control(context: MemoryCallContext): MemoryControlPlane;
  /** The runtime API for one caller: capture, upsertRecords, query, list, get, forget, correct, profile, jobs. */
  runtime(context: MemoryCallContext): MemoryRuntime;
  /** The operator's explorer for one caller: operations, counts, metrics, hook deliveries, extraction jobs. */
  explorer(context: MemoryCallContext): MemoryExplorer;
  /** The cost ledger for one caller: cost events, finance events, summaries. */
  costs(context: MemoryCallContext): MemoryCostLedger;
  /** Applies the operation-log retention window now (or deletes before `before`); the prune is itself logged. */
  pruneOperationLog(context: MemoryCallContext, request?: MemoryPruneRequest): Promise<MemoryPruneReport>;
  /**
   * Makes this process a worker of the service's queue. The default in-process queue already
   * has its worker; with a durable queue, call it in each worker process.
   */
  startWorker(options?: MemoryServiceWorkerOptions): Promise<MemoryServiceWorker>;
  /** The queue of hook deliveries, extraction polls and retention passes. */
  readonly queue: MemoryJobQueue;
  /** Waits until the jobs due in this process have run, then writes the pending usage counts and log entries. */
  whenIdle(): Promise<void>;
  /** The hook registry and the five hooks. */
  readonly hooks: MemoryHooks;
  /** The provider registry. */
  readonly providers: MemoryServiceProviders;
  /** The store the service runs on. */
  readonly store: MemoryServiceStore;
  /** Counters since start. */
  metrics(): MemoryServiceMetrics;
  /** Writes every pending usage count (of bindings without caps) and operation log entry. */
  flush(): Promise<void>;
  /** Stops the queue (waiting for running jobs), flushes usage counts and the log, closes the adapters that can be closed, then the store. */
  close(): Promise<void>;
}

/**
 * Creates the memory service. With no settings it runs on an in-memory SQLite store with no
 * provider: the service knows none of its own, so a host passes the definitions its bindings
 * may name (`settings.providers`: each adapter package's `./provider` export, or
 * `loadProviderPackage(name)`). The store is migrated before this resolves.
 *
 * @example
 * ```ts
 * import { provider as markdown } from '@memplane/markdown/provider';
 *
 * const service = await createMemoryService({ store: createSqliteMemoryServiceStore({ filename: 'memory.db' }), dataDirectory: './memory', providers: [markdown] });
 * const admin = service.control({ actor: { kind: 'company', companyId: 'acme' } });
 * await admin.createBinding({ key: 'default', providerId: 'markdown' });
 * await admin.setTarget({ targetType: 'company' }, 'default');
 * const memory = service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } });
 * await memory.query({ query: 'when do we deploy?' });
 * ```
 */
export async function createMemoryService(settings: MemoryServiceSettings = {}): Promise<MemoryService> {
  validateMemoryServiceSettings(settings);
  // Before anything is opened: a bad definition fails the start, naming its field.
  const registry = createProviderRegistry();
  for (const definition of settings.providers ?? []) registry.register(definition, { origin: 'configured' });
  const hookTimeoutMs = settings.hooks?.timeoutMs ?? 5000;
  const hookMaxAttempts = settings.hooks?.maxAttempts ?? 2;
  // Before anything is opened: a queue that expires running deliveries would run them twice.
  assertQueueOutlivesDeliveries(
    settings.queue?.jobExpiryMs,
    { hookTimeoutMs, maxAttempts: hookMaxAttempts, subscriberTimeoutMs: hookTimeoutMs },
    'Lower settings.hooks (timeoutMs, maxAttempts) or raise the queue\'s expiry (expireInSeconds).',
  );
  // Every write of log-like data goes through the redactor: no resolved secret reaches a table.
  const redactor = createSecretRedactor();
  const store = createRedactingStore(settings.store ?? createSqliteMemoryServiceStore(), redactor);
  await store.migrate();
  const dataDirectory = settings.dataDirectory === undefined ? undefined : resolve(settings.dataDirectory);
  const bindingRules = {
    secrets: { environment: settings.environment ?? process.env, allowedEnvironment: settings.secretEnvironment, resolver: settings.secretResolver },
    destinations: createDestinationCheck(settings.destinations, registry.officialEndpoints),
    dataDirectory,
    redactor,
  };
  const adapters = createAdapterCache({ registry, rules: bindingRules });
  const clock = settings.now ?? (() => new Date());
  const customNow = () => {
    const value = clock();
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
      throw new MemoryConfigurationError({ message: 'The memory service clock (settings.now) must return a valid Date.' });
    }
    return value.toISOString();
  };
  // Every operation stamps its log entry; formatting the time once per millisecond is enough.
  let lastMillisecond = Number.NaN;
  let lastTimestamp = '';
  const realNow = () => {
    const millisecond = Date.now();
    if (millisecond !== lastMillisecond) {
      lastMillisecond = millisecond;
      lastTimestamp = new Date(millisecond).toISOString();
    }
    return lastTimestamp;
  };
  const now = settings.now === undefined ? realNow : customNow;
  const reportBackgroundError = (error: unknown, task: string) => settings.onBackgroundError?.(redactor.redactError(error), task);
  const logWriter = createOperationLogWriter({
    store,
    batchSize: settings.operationLog?.batchSize ?? defaultOperationLogBatchSize,
    maxPendingEntries: settings.operationLog?.maxPendingEntries ?? 100_000,
    onError: (error) => reportBackgroundError(error, 'appendOperations'),
  });
  const usageSettlements = createUsageSettlements({
    store,
    maxQueuedRecords: 1_000,
    onError: (error) => reportBackgroundError(error, 'settleBindingUsage'),
  });
  // Everything written before a flush is in the store after it: usage counts, then the log.
  const flushWrites = async () => {
    await usageSettlements.flush();
    await logWriter.flush();
  };
  const ownsWorker = settings.queue === undefined;
  const queue =
    settings.queue ??
    createInProcessJobQueue({ onError: (error, job) => reportBackgroundError(error, `job:${job.kind}`) });
  await queue.start();
  const deadlines = { ...settings.deadlines, defaultMs: settings.deadlines?.defaultMs ?? defaultProviderDeadlineMs };
  const internals: ServiceInternals = {
    store,
    registry,
    adapters,
    authorize: settings.authorize ?? defaultAuthorize,
    logWriter,
    usageSettlements,
    codec: createCursorCodec({ ...(settings.cursorSecret === undefined ? {} : { secret: settings.cursorSecret }), now: () => clock().getTime() }),
    now,
    createId: settings.createId ?? createSortableIdFactory(),
    hookTimeoutMs,
    hookMaxAttempts,
    hydration: { maxSnippets: 8, maxCharacters: 4000, maxSnippetCharacters: 600, ...settings.hydration },
    recordCostEvent: settings.recordCostEvent,
    queue,
    extractionPolling: { delayMs: settings.extractionPolling?.delayMs ?? 5000, maxPolls: settings.extractionPolling?.maxPolls ?? 20 },
    retention: {
      operationLogDays: settings.operationLog?.retentionDays,
      intervalMs: settings.operationLog?.retentionIntervalMs ?? 3_600_000,
      floorDays: settings.operationLog?.retentionFloorDays ?? defaultRetentionFloorDays,
    },
    reportBackgroundError,
    redactor,
    bindingRules,
    deadlineFor: (binding) => deadlineOf(deadlines, binding),
    agentReadReach: settings.agentIdentity?.reads ?? defaultAgentReadReach,
    trustsSummariesOf: (binding) => settings.results?.trustProviderSummaries?.(binding) === true,
    counters: {
      operations: 0,
      failedOperations: 0,
      deniedOperations: 0,
      droppedOutOfScope: 0,
      failedHookDeliveries: 0,
      inFlightOperations: 0,
      timedOutProviderCalls: 0,
    },
  };
  const hooks = createMemoryHooks(internals);
  let worker: MemoryServiceWorker | undefined;
  // In-process jobs can only run here, so this service is their worker.
  if (ownsWorker) worker = await startServiceWorker(internals, hooks);

  return {
    control: (context) => createMemoryControlPlane(internals, parseCallContext(context)),
    runtime: (context) => createMemoryRuntime(internals, parseCallContext(context)),
    explorer: (context) => createMemoryExplorer(internals, parseCallContext(context)),
    hooks,
    costs: (context) => createMemoryCostLedger(internals, parseCallContext(context)),
    pruneOperationLog: (context, request = {}) => pruneOperationLog(internals, parseCallContext(context), request),
    async startWorker(options) {
      worker ??= await startServiceWorker(internals, hooks, options);
      return worker;
    },
    queue,
    async whenIdle() {
      await queue.whenIdle?.();
      await flushWrites();
    },
    providers: {
      list: () => registry.list(),
      describe: (providerId) => registry.describe(providerId),
      register: (context, definition, options) => registerProvider(internals, context, definition, options),
    },
    store,
    metrics() {
      const log = logWriter.counters();
      return {
        ...internals.counters,
        loggedOperations: log.written,
        failedLogBatches: log.failedBatches,
        droppedLogEntries: log.droppedEntries,
        pendingLogEntries: logWriter.pending(),
      };
    },
    flush: flushWrites,
    async close() {
      await (worker === undefined ? queue.stop() : worker.stop());
      await flushWrites();
      await adapters.closeAll();
      await store.close();
    },
  };
}
