import type { MemoryBillingType } from '@memplane/core';

/**
 * One row of `cost_events`: the spend of one directly billed, metered provider call, as the
 * provider reported it. Created only for `billed_directly` usage that carries counters; work
 * inside a heartbeat run (`included_in_run`) creates none. The columns follow Paperclip's
 * `cost_events`, plus the links back to the memory operation and binding.
 */
export interface MemoryCostEventEntry {
  /** The cost event id (`cost_…`). */
  id: string;
  /** The company billed. */
  companyId: string;
  /** The memory operation that made the call. */
  operationId: string;
  /** The binding it ran through. */
  bindingId: string;
  /** The binding key at the time. */
  bindingKey: string;
  /** The provider that did the work (the usage entry's `provider`). */
  provider: string;
  /** Who bills, when it differs from the provider. */
  biller?: string;
  /** How the provider bills. */
  billingType?: MemoryBillingType;
  /** The model, when one did the work. */
  model?: string;
  /** The agent, issue, run and heartbeat run of the operation, when known. */
  agentId?: string;
  issueId?: string;
  runId?: string;
  heartbeatRunId?: string;
  /** Counters as reported (never invented). */
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
  embeddingTokens?: number;
  /** Cost in US cents as reported. */
  costCents?: number;
  /** The provider's own usage payload. */
  raw?: unknown;
  /** The id the host's ledger gave it, when `recordCostEvent` mirrored it there. */
  externalId?: string;
  /** When the call was made (ISO 8601). */
  occurredAt: string;
}

/** What a finance event books. */
export type MemoryFinanceEventKind = 'subscription' | 'storage' | 'platform_fee' | 'invoice' | 'credit' | 'other';

/**
 * One row of `finance_events`: a flat cost (a subscription, a storage invoice, a platform fee)
 * that belongs to no single request. Never recorded as a synthetic memory operation.
 */
export interface MemoryFinanceEventEntry {
  /** The finance event id (`fin_…`). */
  id: string;
  /** The company it is booked to. */
  companyId: string;
  /** The binding it concerns, when one. */
  bindingId?: string;
  /** The binding key at the time. */
  bindingKey?: string;
  /** The agent it is attributed to, when one (usually none). */
  agentId?: string;
  /** What it books. */
  kind: MemoryFinanceEventKind;
  /** `debit` costs money, `credit` gives it back (summaries subtract it). */
  direction: 'debit' | 'credit';
  /** Who bills it, such as `mem0`. */
  biller: string;
  /** The amount in US cents, positive. */
  amountCents: number;
  /** A quantity and its unit, such as 12 `GB-month`. */
  quantity?: number;
  unit?: string;
  /** The billing period it covers (ISO 8601), when it covers one. */
  periodStart?: string;
  periodEnd?: string;
  /** Whether the amount is an estimate (to be replaced by the invoice). */
  estimated: boolean;
  /** A cost event it relates to, when one. */
  costEventId?: string;
  /** A short description for people. */
  description?: string;
  /** Anything else, JSON. */
  metadata?: Record<string, unknown>;
  /** Who booked it (`<kind>:<id>`). */
  recordedBy: string;
  /** When it is booked (ISO 8601); summaries by period use it. */
  occurredAt: string;
}

/** How cost summaries group. */
export type MemoryCostGrouping = 'company' | 'agent' | 'binding' | 'day' | 'month';

/** Filters of cost summaries. */
export interface MemoryCostFilter {
  /** The company (always set). */
  companyId: string;
  /** Only events at or after this time (ISO 8601). */
  from?: string;
  /** Only events before this time (ISO 8601). */
  to?: string;
}

/** One group of a cost summary as the store reads it from one table. */
export interface MemoryCostGroupTotals {
  /** The group: the company id, agent id, binding key, or period (`2026-01-31`, `2026-01`); undefined for events without one. */
  group?: string;
  /** Events in the group. */
  events: number;
  /** Sum of `costCents` (cost events) or signed `amountCents` (finance events, credits negative). */
  cents: number;
  /** Token sums (cost events only; 0 for finance events). */
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  embeddingTokens: number;
}

/** Per-binding figures read from the operation log alone. */
export interface MemoryOperationMetricsRow {
  /** The binding, or undefined for operations that failed before resolution. */
  bindingId?: string;
  /** The binding key recorded with the operations. */
  bindingKey?: string;
  /** Every operation. */
  operations: number;
  /** Succeeded and failed operations. */
  succeeded: number;
  failed: number;
  /** Succeeded queries, those that returned at least one record, and those that returned none. */
  queries: number;
  queryHits: number;
  emptyQueries: number;
  /** Succeeded `correct` operations: manual corrections. */
  corrections: number;
  /** Extraction jobs seen failing (by capture, refresh, listing or retry). */
  extractionFailures: number;
  /** Latency through the service, nearest-rank percentiles, in milliseconds. */
  latencyP50Ms: number;
  latencyP95Ms: number;
}

/** What a binding holds, as the service counts it: records written through it and their bytes. */
export interface MemoryBindingUsage {
  /** Records counted. */
  records: number;
  /** Their bytes (UTF-8 text plus JSON metadata). */
  bytes: number;
}

/** A record the service counts against its binding. */
export interface MemoryCountedRecord {
  /** The provider's record id. */
  providerRecordId: string;
  /** Its bytes. */
  bytes: number;
}
