import type { MemoryBillingType } from '@memplane/core';
import type { MemoryCostEventEntry, MemoryCostGrouping, MemoryCostGroupTotals, MemoryFinanceEventEntry, MemoryFinanceEventKind } from '../memory-accounting-records';

type Row = Record<string, unknown>;

const orNull = (value: unknown): unknown => (value === undefined ? null : value);
const text = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));
const number = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

function compact<Entry extends object>(entry: Entry): Entry {
  for (const key of Object.keys(entry) as Array<keyof Entry>) if (entry[key] === undefined) delete entry[key];
  return entry;
}

export const costEventColumns = [
  'id', 'company_id', 'operation_id', 'binding_id', 'binding_key', 'provider', 'biller', 'billing_type', 'model', 'agent_id', 'issue_id',
  'run_id', 'heartbeat_run_id', 'input_tokens', 'cached_input_tokens', 'output_tokens', 'embedding_tokens', 'cost_cents', 'raw_json',
  'external_id', 'occurred_at',
] as const;

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

export function rowToCostEvent(row: Row): MemoryCostEventEntry {
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
    raw: typeof row.raw_json === 'string' ? (JSON.parse(row.raw_json) as unknown) : undefined,
    externalId: text(row.external_id),
    occurredAt: String(row.occurred_at),
  });
}

export const financeEventColumns = [
  'id', 'company_id', 'binding_id', 'binding_key', 'agent_id', 'kind', 'direction', 'biller', 'amount_cents', 'quantity', 'unit',
  'period_start', 'period_end', 'estimated', 'cost_event_id', 'description', 'metadata_json', 'recorded_by', 'occurred_at',
] as const;

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
    entry.metadata === undefined ? null : JSON.stringify(entry.metadata),
    entry.recordedBy,
    entry.occurredAt,
  ];
}

export function rowToFinanceEvent(row: Row): MemoryFinanceEventEntry {
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
    periodStart: text(row.period_start),
    periodEnd: text(row.period_end),
    estimated: Number(row.estimated) === 1,
    costEventId: text(row.cost_event_id),
    description: text(row.description),
    metadata: typeof row.metadata_json === 'string' ? (JSON.parse(row.metadata_json) as Record<string, unknown>) : undefined,
    recordedBy: String(row.recorded_by),
    occurredAt: String(row.occurred_at),
  });
}

/** The SQL expression a cost summary groups by. Times are stored as ISO 8601 in UTC, so a prefix is the day or the month. */
export function groupingExpression(grouping: MemoryCostGrouping): string {
  switch (grouping) {
    case 'company':
      return 'company_id';
    case 'agent':
      return 'agent_id';
    case 'binding':
      return 'binding_key';
    case 'day':
      return 'substr(occurred_at, 1, 10)';
    case 'month':
      return 'substr(occurred_at, 1, 7)';
  }
}

export function rowToGroupTotals(row: Row): MemoryCostGroupTotals {
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
