import { identifierSchema, metadataSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import { referenceOf } from '../actor/memory-actor';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import { readPage, type MemoryExplorerPage } from '../explorer/explorer-pages';
import { authorizeCompany } from '../policy/authorize-company';
import type { MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryCostEventEntry, MemoryFinanceEventEntry, MemoryFinanceEventKind } from '../store/memory-accounting-records';
import { summarizeCosts, type MemoryCostSummary, type MemoryCostSummaryRequest } from './summarize-costs';

/** A flat cost to book: a subscription, a storage invoice, a platform fee. */
export interface MemoryFinanceEventInput {
  /** What it books. */
  kind: MemoryFinanceEventKind;
  /** Who bills it, such as `mem0`. */
  biller: string;
  /** The amount in US cents, positive. */
  amountCents: number;
  /** `debit` (default) costs money, `credit` gives it back. */
  direction?: 'debit' | 'credit';
  /** The binding it concerns, by key. */
  bindingKey?: string;
  /** The agent it is attributed to, if any. */
  agentId?: string;
  /** A quantity and its unit, such as 12 `GB-month`. */
  quantity?: number;
  unit?: string;
  /** The billing period it covers (ISO 8601). */
  periodStart?: string;
  periodEnd?: string;
  /** Whether the amount is an estimate. Default false. */
  estimated?: boolean;
  /** A cost event it relates to. */
  costEventId?: string;
  /** A short description. */
  description?: string;
  /** Anything else, JSON. */
  metadata?: Record<string, unknown>;
  /** When it is booked (ISO 8601). Default: now. */
  occurredAt?: string;
}

/** Filters of a cost event listing. */
export interface MemoryCostEventQuery {
  operationId?: string;
  bindingKey?: string;
  agentId?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

/** Filters of a finance event listing. */
export interface MemoryFinanceEventQuery {
  bindingKey?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

/**
 * The cost ledger of one company: `cost_events` (what directly billed provider calls cost, as
 * reported, written by the service) and `finance_events` (flat costs booked here, never as
 * operations), and summaries over both. Reads are authorised as `costs.read`, bookings as
 * `finance.write`; agents may do neither under the default policy.
 */
export interface MemoryCostLedger {
  /** Books a flat cost. */
  recordFinanceEvent(input: MemoryFinanceEventInput): Promise<MemoryFinanceEventEntry>;
  /** Cost events newest first, filtered, by cursor. */
  listCostEvents(query?: MemoryCostEventQuery): Promise<MemoryExplorerPage<MemoryCostEventEntry>>;
  /** Finance events newest first, filtered, by cursor. */
  listFinanceEvents(query?: MemoryFinanceEventQuery): Promise<MemoryExplorerPage<MemoryFinanceEventEntry>>;
  /** Metered and flat costs per company, agent, binding, day or month. */
  summarize(request: MemoryCostSummaryRequest): Promise<MemoryCostSummary>;
}

const isoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const financeInputSchema = z.strictObject({
  kind: z.enum(['subscription', 'storage', 'platform_fee', 'invoice', 'credit', 'other']),
  biller: z.string().min(1).max(200),
  amountCents: z.number().nonnegative().max(1e12),
  direction: z.enum(['debit', 'credit']).optional(),
  bindingKey: identifierSchema.optional(),
  agentId: identifierSchema.optional(),
  quantity: z.number().nonnegative().optional(),
  unit: z.string().min(1).max(64).optional(),
  periodStart: isoDate.optional(),
  periodEnd: isoDate.optional(),
  estimated: z.boolean().optional(),
  costEventId: identifierSchema.optional(),
  description: z.string().max(2000).optional(),
  metadata: metadataSchema.optional(),
  occurredAt: isoDate.optional(),
});

const page = { cursor: z.string().min(1).max(4096).optional(), limit: z.number().int().min(1).max(200).optional() };
const range = { from: isoDate.optional(), to: isoDate.optional() };
export const costQuerySchema = z.strictObject({ operationId: identifierSchema.optional(), bindingKey: identifierSchema.optional(), agentId: identifierSchema.optional(), ...range, ...page });
export const financeQuerySchema = z.strictObject({ bindingKey: identifierSchema.optional(), ...range, ...page });

/** Creates the cost ledger of one caller. */
export function createMemoryCostLedger(internals: ServiceInternals, context: MemoryCallContext): MemoryCostLedger {
  const bindingIdOf = async (companyId: string, bindingKey: string | undefined) => {
    if (bindingKey === undefined) return undefined;
    const binding = await internals.store.getBindingByKey(companyId, bindingKey);
    if (binding === undefined) throw new MemoryBindingNotFoundError({ companyId, bindingKey });
    return binding;
  };

  return {
    async recordFinanceEvent(input) {
      const valid = parseInput(financeInputSchema, input, 'finance event', 'input');
      const companyId = await authorizeCompany(internals.authorize, context, 'finance.write');
      const binding = await bindingIdOf(companyId, valid.bindingKey);
      const { bindingKey: _key, direction, estimated, occurredAt, ...rest } = valid;
      const actor = referenceOf(context.actor);
      const entry: MemoryFinanceEventEntry = {
        ...rest,
        id: internals.createId('fin'),
        companyId,
        direction: direction ?? 'debit',
        estimated: estimated ?? false,
        recordedBy: `${actor.kind}:${actor.id}`,
        occurredAt: occurredAt ?? internals.now(),
        ...(binding === undefined ? {} : { bindingId: binding.id, bindingKey: binding.key }),
      };
      await internals.store.appendFinanceEvents([entry]);
      return entry;
    },

    async listCostEvents(query = {}) {
      const { cursor, limit, bindingKey, ...filters } = parseInput(costQuerySchema, query, 'cost event query');
      const companyId = await authorizeCompany(internals.authorize, context, 'costs.read');
      const binding = await bindingIdOf(companyId, bindingKey);
      const filter = { ...filters, companyId, ...(binding === undefined ? {} : { bindingId: binding.id }) };
      return readPage(internals.codec, { companyId, listing: 'cost-events', filter }, { cursor, limit }, (request) => internals.store.listCostEvents(filter, request));
    },

    async listFinanceEvents(query = {}) {
      const { cursor, limit, bindingKey, ...filters } = parseInput(financeQuerySchema, query, 'finance event query');
      const companyId = await authorizeCompany(internals.authorize, context, 'costs.read');
      const binding = await bindingIdOf(companyId, bindingKey);
      const filter = { ...filters, companyId, ...(binding === undefined ? {} : { bindingId: binding.id }) };
      return readPage(internals.codec, { companyId, listing: 'finance-events', filter }, { cursor, limit }, (request) =>
        internals.store.listFinanceEvents(filter, request),
      );
    },

    async summarize(request) {
      const companyId = await authorizeCompany(internals.authorize, context, 'costs.read');
      return summarizeCosts(internals, companyId, request);
    },
  };
}
