import type { MemoryBillingType } from '@memplane/core';
import type {
  MemoryCostEventEntry,
  MemoryCostGrouping,
  MemoryCostGroupTotals,
  MemoryFinanceEventEntry,
  MemoryFinanceEventKind,
  MemoryOperationMetricsRow,
} from '../memory-accounting-records';
import { compact, flag, jsonOrNull, number, optionalTime, orNull, storeColumns, text, time, type StoreRow, type StoreRowCodec } from './store-row-codec';

/** The columns of `cost_events`; {@link costEventValues} follows their order. */
export const costEventColumns = storeColumns([
  ...(['id', 'company_id', 'operation_id', 'binding_id', 'binding_key', 'provider', 'biller', 'billing_type', 'model'] as const).map(
    (name) => [name, 'text'] as const,
  ),
  ...(['agent_id', 'issue_id', 'run_id', 'heartbeat_run_id'] as const).map((name) => [name, 'text'] as const),
  ...(['input_tokens', 'cached_input_tokens', 'output_tokens', 'embedding_tokens', 'cost_cents'] as const).map((name) => [name, 'real'] as const),
  ['raw_json', 'json'],
  ['external_id', 'text'],
  ['occurred_at', 'time'],
]);

/** The values of a cost event in {@link costEventColumns} order. */
export function costEventValues(entry: MemoryCostEventEntry): unknown[] {
  return [
    entry.id,
    entry.companyId,
    entry.operationId,
    entry.bindingId,
    entry.bindingKey,
    entry.provider,
    orNull(entry.biller),
    orNull(entry.billingType),
    orNull(entry.model),
    orNull(entry.agentId),
    orNull(entry.issueId),
    orNull(entry.runId),
    orNull(entry.heartbeatRunId),
    orNull(entry.inputTokens),
    orNull(entry.cachedInputTokens),
    orNull(entry.outputTokens),
    orNull(entry.embeddingTokens),
    orNull(entry.costCents),
    entry.raw === undefined ? null : JSON.stringify(entry.raw),
    orNull(entry.externalId),
    entry.occurredAt,
  ];
}

/** A cost event row back as the entry. */
export function rowToCostEvent(row: StoreRow, codec: StoreRowCodec): MemoryCostEventEntry {
  return compact<MemoryCostEventEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    operationId: String(row.operation_id),
    bindingId: String(row.binding_id),
    bindingKey: String(row.binding_key),
    provider: String(row.provider),
    biller: text(row.biller),
    billingType: text(row.billing_type) as MemoryBillingType | undefined,
    model: text(row.model),
    agentId: text(row.agent_id),
    issueId: text(row.issue_id),
    runId: text(row.run_id),
    heartbeatRunId: text(row.heartbeat_run_id),
    inputTokens: number(row.input_tokens),
    cachedInputTokens: number(row.cached_input_tokens),
    outputTokens: number(row.output_tokens),
    embeddingTokens: number(row.embedding_tokens),
    costCents: number(row.cost_cents),
    raw: codec.readJson(row.raw_json),
    externalId: text(row.external_id),
    occurredAt: time(row.occurred_at),
  });
}

/** The columns of `finance_events`; {@link financeEventValues} follows their order. */
export const financeEventColumns = storeColumns([
  ...(['id', 'company_id', 'binding_id', 'binding_key', 'agent_id', 'kind', 'direction', 'biller'] as const).map((name) => [name, 'text'] as const),
  ['amount_cents', 'real'],
  ['quantity', 'real'],
  ['unit', 'text'],
  ['period_start', 'time'],
  ['period_end', 'time'],
  ['estimated', 'boolean'],
  ['cost_event_id', 'text'],
  ['description', 'text'],
  ['metadata_json', 'json'],
  ['recorded_by', 'text'],
  ['occurred_at', 'time'],
]);

/** The values of a finance event in {@link financeEventColumns} order. */
export function financeEventValues(entry: MemoryFinanceEventEntry): unknown[] {
  return [
    entry.id,
    entry.companyId,
    orNull(entry.bindingId),
    orNull(entry.bindingKey),
    orNull(entry.agentId),
    entry.kind,
    entry.direction,
    entry.biller,
    entry.amountCents,
    orNull(entry.quantity),
    orNull(entry.unit),
    orNull(entry.periodStart),
    orNull(entry.periodEnd),
    entry.estimated ? 1 : 0,
    orNull(entry.costEventId),
    orNull(entry.description),
    jsonOrNull(entry.metadata),
    entry.recordedBy,
    entry.occurredAt,
  ];
}

/** A finance event row back as the entry. */
export function rowToFinanceEvent(row: StoreRow, codec: StoreRowCodec): MemoryFinanceEventEntry {
  return compact<MemoryFinanceEventEntry>({
    id: String(row.id),
    companyId: String(row.company_id),
    bindingId: text(row.binding_id),
    bindingKey: text(row.binding_key),
    agentId: text(row.agent_id),
    kind: row.kind as MemoryFinanceEventKind,
    direction: row.direction as 'debit' | 'credit',
    biller: String(row.biller),
    amountCents: Number(row.amount_cents),
    quantity: number(row.quantity),
    unit: text(row.unit),
    periodStart: optionalTime(row.period_start),
    periodEnd: optionalTime(row.period_end),
    estimated: flag(row.estimated),
    costEventId: text(row.cost_event_id),
    description: text(row.description),
    metadata: codec.readJson(row.metadata_json) as Record<string, unknown> | undefined,
    recordedBy: String(row.recorded_by),
    occurredAt: time(row.occurred_at),
  });
}

/**
 * The SQL expression a cost summary groups by. `datePrefix` turns `occurred_at` into its UTC
 * day (`YYYY-MM-DD`, 10 characters) or month (`YYYY-MM`, 7) in the store's SQL.
 */
export function groupingExpression(grouping: MemoryCostGrouping, datePrefix: (characters: 10 | 7) => string): string {
  switch (grouping) {
    case 'company':
      return 'company_id';
    case 'agent':
      return 'agent_id';
    case 'binding':
      return 'binding_key';
    case 'day':
      return datePrefix(10);
    case 'month':
      return datePrefix(7);
  }
}

/** A summary row (`group_name`, `events`, `cents` and the token sums) back as group totals. */
export function rowToGroupTotals(row: StoreRow): MemoryCostGroupTotals {
  return {
    ...(row.group_name === null || row.group_name === undefined ? {} : { group: String(row.group_name) }),
    events: Number(row.events),
    cents: Number(row.cents),
    inputTokens: Number(row.input_tokens),
    cachedInputTokens: Number(row.cached_input_tokens),
    outputTokens: Number(row.output_tokens),
    embeddingTokens: Number(row.embedding_tokens),
  };
}

/** A metrics row of the operation log, as both stores select it, back as the metrics of one binding. */
export function rowToMetrics(row: StoreRow): MemoryOperationMetricsRow {
  return {
    ...(row.binding_id === null ? {} : { bindingId: String(row.binding_id) }),
    ...(row.binding_key === null ? {} : { bindingKey: String(row.binding_key) }),
    operations: Number(row.operations),
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    queries: Number(row.queries),
    queryHits: Number(row.query_hits),
    emptyQueries: Number(row.empty_queries),
    corrections: Number(row.corrections),
    extractionFailures: Number(row.extraction_failures),
    latencyP50Ms: Number(row.latency_p50),
    latencyP95Ms: Number(row.latency_p95),
  };
}
