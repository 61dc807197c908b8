import { parseInput } from '@memplane/core';
import { z } from 'zod';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryCostGrouping, MemoryCostGroupTotals } from '../store/memory-accounting-records';

/** What to summarize. */
export interface MemoryCostSummaryRequest {
  /** `company`, `agent`, `binding` (by key), `day` or `month` (UTC). */
  groupBy: MemoryCostGrouping;
  /** Only costs at or after this time (ISO 8601). */
  from?: string;
  /** Only costs before this time (ISO 8601). */
  to?: string;
}

/** Costs of one group, or of all groups. */
export interface MemoryCostTotals {
  /** What directly billed provider calls cost (`cost_events`), in US cents. */
  meteredCents: number;
  /** Flat costs (`finance_events`), credits subtracted, in US cents. */
  flatCents: number;
  /** Both. */
  totalCents: number;
  /** Cost and finance events counted. */
  costEvents: number;
  financeEvents: number;
  /** Tokens the metered calls reported. */
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  embeddingTokens: number;
}

/** One group of a summary. `group` is absent for costs with no agent (or binding), such as most flat costs. */
export interface MemoryCostGroup extends MemoryCostTotals {
  group?: string;
}

/** A cost summary of one company. */
export interface MemoryCostSummary {
  companyId: string;
  groupBy: MemoryCostGrouping;
  from?: string;
  to?: string;
  /** Per group, sorted by group name, the unnamed group first. */
  groups: MemoryCostGroup[];
  /** All groups together. */
  totals: MemoryCostTotals;
}

const isoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
export const costSummaryRequestSchema = z.strictObject({
  groupBy: z.enum(['company', 'agent', 'binding', 'day', 'month']),
  from: isoDate.optional(),
  to: isoDate.optional(),
});

const emptyTotals = (): MemoryCostTotals => ({
  meteredCents: 0,
  flatCents: 0,
  totalCents: 0,
  costEvents: 0,
  financeEvents: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  embeddingTokens: 0,
});

function add(target: MemoryCostTotals, metered: MemoryCostGroupTotals | undefined, flat: MemoryCostGroupTotals | undefined): void {
  target.meteredCents += metered?.cents ?? 0;
  target.flatCents += flat?.cents ?? 0;
  target.totalCents = target.meteredCents + target.flatCents;
  target.costEvents += metered?.events ?? 0;
  target.financeEvents += flat?.events ?? 0;
  target.inputTokens += metered?.inputTokens ?? 0;
  target.cachedInputTokens += metered?.cachedInputTokens ?? 0;
  target.outputTokens += metered?.outputTokens ?? 0;
  target.embeddingTokens += metered?.embeddingTokens ?? 0;
}

/** Sums both ledgers per group and merges them: metered and flat costs side by side. */
export async function summarizeCosts(internals: ServiceInternals, companyId: string, request: MemoryCostSummaryRequest): Promise<MemoryCostSummary> {
  const valid = parseInput(costSummaryRequestSchema, request, 'cost summary request');
  const filter = { companyId, ...(valid.from === undefined ? {} : { from: valid.from }), ...(valid.to === undefined ? {} : { to: valid.to }) };
  const [metered, flat] = await Promise.all([
    internals.store.summarizeCostEvents(filter, valid.groupBy),
    internals.store.summarizeFinanceEvents(filter, valid.groupBy),
  ]);
  const keyOf = (row: MemoryCostGroupTotals) => row.group ?? '\u0000';
  const meteredByGroup = new Map(metered.map((row) => [keyOf(row), row]));
  const flatByGroup = new Map(flat.map((row) => [keyOf(row), row]));
  const keys = [...new Set([...meteredByGroup.keys(), ...flatByGroup.keys()])].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const totals = emptyTotals();
  const groups = keys.map((key) => {
    const group: MemoryCostGroup = { ...(key === '\u0000' ? {} : { group: key }), ...emptyTotals() };
    add(group, meteredByGroup.get(key), flatByGroup.get(key));
    add(totals, meteredByGroup.get(key), flatByGroup.get(key));
    return group;
  });
  return { companyId, groupBy: valid.groupBy, ...(valid.from === undefined ? {} : { from: valid.from }), ...(valid.to === undefined ? {} : { to: valid.to }), groups, totals };
}
