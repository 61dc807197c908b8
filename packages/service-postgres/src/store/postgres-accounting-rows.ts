import type { MemoryBillingType } from '@memplane/core';
import type { MemoryCostEventEntry, MemoryCostGrouping, MemoryCostGroupTotals, MemoryFinanceEventEntry, MemoryFinanceEventKind } from '@memplane/service';
import type { RecordsetColumn, Row } from './postgres-rows';

const orNull = <Value>(value: Value | undefined): Value | null => (value === undefined ? null : value);
const text = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));
const number = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
const time = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const optionalTime = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : time(value));

function compact<Entry extends object>(entry: Entry): Entry {
  for (const key of Object.keys(entry) as Array<keyof Entry>) if (entry[key] === undefined) delete entry[key];
  return entry;
}

const columns = (names: string[], type: string): RecordsetColumn[] => names.map((name) => ({ name, type }));

export const costEventColumns: readonly RecordsetColumn[] = [
  ...columns(['id', 'company_id', 'operation_id', 'binding_id', 'binding_key', 'provider', 'biller', 'billing_type', 'model'], 'text'),
  ...columns(['agent_id', 'issue_id', 'run_id', 'heartbeat_run_id'], 'text'),
  ...columns(['input_tokens', 'cached_input_tokens', 'output_tokens', 'embedding_tokens', 'cost_cents'], 'double precision'),
  { name: 'raw_json', type: 'json' },
  { name: 'external_id', type: 'text' },
  { name: 'occurred_at', type: 'timestamptz' },
];

export function costEventToRecord(entry: MemoryCostEventEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    operation_id: entry.operationId,
    binding_id: entry.bindingId,
    binding_key: entry.bindingKey,
    provider: entry.provider,
    biller: orNull(entry.biller),
    billing_type: orNull(entry.billingType),
    model: orNull(entry.model),
    agent_id: orNull(entry.agentId),
    issue_id: orNull(entry.issueId),
    run_id: orNull(entry.runId),
    heartbeat_run_id: orNull(entry.heartbeatRunId),
    input_tokens: orNull(entry.inputTokens),
    cached_input_tokens: orNull(entry.cachedInputTokens),
    output_tokens: orNull(entry.outputTokens),
    embedding_tokens: orNull(entry.embeddingTokens),
    cost_cents: orNull(entry.costCents),
    raw_json: entry.raw === undefined ? null : entry.raw,
    external_id: orNull(entry.externalId),
    occurred_at: entry.occurredAt,
  };
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
    raw: row.raw_json === null ? undefined : row.raw_json,
    externalId: text(row.external_id),
    occurredAt: time(row.occurred_at),
  });
}

export const financeEventColumns: readonly RecordsetColumn[] = [
  ...columns(['id', 'company_id', 'binding_id', 'binding_key', 'agent_id', 'kind', 'direction', 'biller'], 'text'),
  { name: 'amount_cents', type: 'double precision' },
  { name: 'quantity', type: 'double precision' },
  { name: 'unit', type: 'text' },
  ...columns(['period_start', 'period_end'], 'timestamptz'),
  { name: 'estimated', type: 'boolean' },
  ...columns(['cost_event_id', 'description'], 'text'),
  { name: 'metadata_json', type: 'json' },
  { name: 'recorded_by', type: 'text' },
  { name: 'occurred_at', type: 'timestamptz' },
];

export function financeEventToRecord(entry: MemoryFinanceEventEntry): Row {
  return {
    id: entry.id,
    company_id: entry.companyId,
    binding_id: orNull(entry.bindingId),
    binding_key: orNull(entry.bindingKey),
    agent_id: orNull(entry.agentId),
    kind: entry.kind,
    direction: entry.direction,
    biller: entry.biller,
    amount_cents: entry.amountCents,
    quantity: orNull(entry.quantity),
    unit: orNull(entry.unit),
    period_start: orNull(entry.periodStart),
    period_end: orNull(entry.periodEnd),
    estimated: entry.estimated,
    cost_event_id: orNull(entry.costEventId),
    description: orNull(entry.description),
    metadata_json: orNull(entry.metadata),
    recorded_by: entry.recordedBy,
    occurred_at: entry.occurredAt,
  };
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
    periodStart: optionalTime(row.period_start),
    periodEnd: optionalTime(row.period_end),
    estimated: row.estimated === true,
    costEventId: text(row.cost_event_id),
    description: text(row.description),
    metadata: (row.metadata_json ?? undefined) as Record<string, unknown> | undefined,
    recordedBy: String(row.recorded_by),
    occurredAt: time(row.occurred_at),
  });
}

/** The SQL expression a cost summary groups by; days and months are UTC. */
export function groupingExpression(grouping: MemoryCostGrouping): string {
  switch (grouping) {
    case 'company':
      return 'company_id';
    case 'agent':
      return 'agent_id';
    case 'binding':
      return 'binding_key';
    case 'day':
      return `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    case 'month':
      return `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM')`;
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
