import type { UsageSettlements } from '../quota/usage-settlements';
import type { CursorCodec } from '@memplane/core';
import type { OperationLogWriter } from '../audit/operation-log-writer';
import type { MemoryAuthorize } from '../policy/memory-policy';
import type { AdapterCache } from '../providers/adapter-cache';
import type { MemoryProviderRegistry } from '../providers/provider-registry';
import type { MemoryCostEventRecorder } from '../runtime/usage-attribution';
import type { MemoryJobQueue } from '../queue/memory-job-queue';
import type { MemoryServiceStore } from '../store/memory-service-store';
import type { MemoryHydrationLimits } from './memory-service-settings';
import type { MemoryBinding } from '../bindings/memory-binding';
import type { MemoryAgentReadReach } from '../runtime/agent-identity';
import type { BindingRules } from '../providers/binding-rules';
import type { SecretRedactor } from '../security/secret-redactor';

/** Counters of one service since it started. */
export interface MemoryServiceMetrics {
  /** Operations run through the runtime API, hooks and tools. */
  operations: number;
  /** Of those, the ones that failed (refusals included). */
  failedOperations: number;
  /** Of those, the ones the policy or the company rule refused. */
  deniedOperations: number;
  /** Records providers returned outside the scope, dropped before reaching the caller. */
  droppedOutOfScope: number;
  /** Operation log entries written. */
  loggedOperations: number;
  /** Operation log batches that failed to write. */
  failedLogBatches: number;
  /** Operation log entries lost after repeated failures. */
  droppedLogEntries: number;
  /** Operation log entries waiting for their batch. */
  pendingLogEntries: number;
  /** Hook deliveries that failed or timed out. */
  failedHookDeliveries: number;
  /** Operations running now: started and not yet finished, failed or timed out. */
  inFlightOperations: number;
  /** Provider calls cut off by their deadline. */
  timedOutProviderCalls: number;
}

/** What the parts of one service share. Internal. */
export interface ServiceInternals {
  store: MemoryServiceStore;
  registry: MemoryProviderRegistry;
  adapters: AdapterCache;
  authorize: MemoryAuthorize;
  logWriter: OperationLogWriter;
  usageSettlements: UsageSettlements;
  codec: CursorCodec;
  now: () => string;
  createId: (prefix: string) => string;
  hookTimeoutMs: number;
  hookMaxAttempts: number;
  hydration: MemoryHydrationLimits;
  recordCostEvent: MemoryCostEventRecorder | undefined;
  queue: MemoryJobQueue;
  extractionPolling: { delayMs: number; maxPolls: number };
  retention: { operationLogDays: number | undefined; intervalMs: number; floorDays: number };
  /** Takes resolved secret values out of everything stored or returned. */
  redactor: SecretRedactor;
  /** The operator's rules for binding configs: secrets, destinations, the data directory. */
  bindingRules: BindingRules;
  reportBackgroundError: (error: unknown, task: string) => void;
  /** The deadline of one provider call through a binding, in milliseconds. */
  deadlineFor: (binding: MemoryBinding) => number;
  /** What an agent may read beyond its own records. */
  agentReadReach: MemoryAgentReadReach;
  /** Whether a binding's provider summaries are passed on unchecked. */
  trustsSummariesOf: (binding: MemoryBinding) => boolean;
  counters: Omit<MemoryServiceMetrics, 'loggedOperations' | 'failedLogBatches' | 'droppedLogEntries' | 'pendingLogEntries'>;
}
