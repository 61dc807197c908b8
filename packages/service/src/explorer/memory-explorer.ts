import { identifierSchema, memorySourceKindSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import type { MemoryActorKind } from '../actor/memory-actor';
import { authorizeCompany } from '../policy/authorize-company';
import type { MemoryCallContext } from '../runtime/call-context';
import { listStoredExtractionJobs } from '../runtime/memory-runtime';
import type { ServiceJobListRequest } from '../runtime/runtime-requests';
import type { ServiceInternals } from '../service/service-internals';
import type {
  MemoryExtractionJobEntry,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryFilter,
  MemoryOperationCount,
  MemoryOperationEntry,
  MemoryOperationFilter,
} from '../store/memory-service-records';
import { readPage, type MemoryExplorerPage } from './explorer-pages';
import { readOperationMetrics, type MemoryOperationMetrics } from './operation-metrics';

/** Explorer filters over the operation log of the caller's company. */
export type MemoryOperationQuery = Omit<MemoryOperationFilter, 'companyId' | 'bindingId' | 'actorId'> & {
  /** Only operations through this binding. */
  bindingKey?: string;
  /**
   * Only operations this actor called: the agent id (user id, operator id or component for the
   * other kinds), whatever their scope names. An agent's company-wide searches and the calls
   * refused to it carry no `agentId` in their scope; they carry it here. With `actorKind`, only
   * that kind of actor of this id.
   */
  actor?: string;
  /** The `nextCursor` of the previous page (valid only with the same filters). */
  cursor?: string;
  /** Page size, default 50, at most 200. */
  limit?: number;
};

/** Filters over hook deliveries of the caller's company. */
export type MemoryHookDeliveryQuery = Omit<MemoryHookDeliveryFilter, 'companyId'> & { cursor?: string; limit?: number };

/** Per-binding operation counts. */
export interface MemoryBindingOperationCounts {
  /** The binding key recorded with the operations (`(unresolved)` for operations that failed before resolution). */
  bindingKey: string;
  /** The binding id, when resolved. */
  bindingId?: string;
  /** All operations through the binding. */
  total: number;
  /** Succeeded operations. */
  succeeded: number;
  /** Failed operations. */
  failed: number;
  /** Records dropped as out of scope. */
  droppedOutOfScope: number;
  /** Per operation type. */
  byOperation: MemoryOperationCount[];
}

/** The operator's view: the operation log, counts, hook deliveries and extraction jobs of one company. */
export interface MemoryExplorer {
  /** Operations newest first, filtered, by cursor. */
  listOperations(query?: MemoryOperationQuery): Promise<MemoryExplorerPage<MemoryOperationEntry>>;
  /** One operation by id, or undefined. */
  getOperation(operationId: string): Promise<MemoryOperationEntry | undefined>;
  /** Counts per binding within an optional date range. */
  countOperations(range?: { from?: string; to?: string }): Promise<MemoryBindingOperationCounts[]>;
  /** Hook deliveries newest first, filtered, by cursor. */
  listHookDeliveries(query?: MemoryHookDeliveryQuery): Promise<MemoryExplorerPage<MemoryHookDeliveryEntry>>;
  /** Extraction jobs the service holds, newest first, filtered, by cursor. */
  listExtractionJobs(query?: ServiceJobListRequest): Promise<MemoryExplorerPage<MemoryExtractionJobEntry>>;
  /**
   * The evaluation metrics, read from the operation log: recall hit rate, empty-query rate,
   * corrections, extraction failures, success and failure, p50/p95 latency, per binding.
   */
  metrics(range?: { from?: string; to?: string; bindingKey?: string }): Promise<MemoryOperationMetrics>;
}

// Every kind of actor can be asked for: a kind added to MemoryActor is a compile error here until it is listed.
const actorKindNames: Record<MemoryActorKind, true> = { agent: true, company: true, operator: true, system: true };

const isoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const operationQuerySchema = z
  .strictObject({
    bindingKey: identifierSchema.optional(),
    agentId: identifierSchema.optional(),
    actor: identifierSchema.optional(),
    actorKind: z.enum(Object.keys(actorKindNames) as [MemoryActorKind, ...MemoryActorKind[]]).optional(),
    issueId: identifierSchema.optional(),
    projectId: identifierSchema.optional(),
    runId: identifierSchema.optional(),
    sourceKind: memorySourceKindSchema.optional(),
    operation: z
      .enum(['capture', 'record_upsert', 'query', 'list', 'get', 'forget', 'correct', 'profile', 'extraction_job_list', 'extraction_job_retry', 'extraction_job_refresh', 'retention_prune'])
      .optional(),
    status: z.enum(['succeeded', 'failed']).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    cursor: z.string().min(1).max(4096).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  })
  // Each filter reads an index of the log; the kind alone has none, so it narrows an actor only.
  .refine((query) => query.actorKind === undefined || query.actor !== undefined, { path: ['actorKind'], message: 'is taken only beside actor' });

export const deliveryQuerySchema = z.strictObject({
  hookKind: z.enum(['pre_run_hydrate', 'post_run_capture', 'issue_comment_capture', 'issue_document_capture', 'manual_capture']).optional(),
  status: z.enum(['succeeded', 'failed', 'timed_out', 'skipped']).optional(),
  hookId: identifierSchema.optional(),
  cursor: z.string().min(1).max(4096).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

export const rangeSchema = z.strictObject({ from: isoDate.optional(), to: isoDate.optional() });
export const metricsSchema = z.strictObject({ from: isoDate.optional(), to: isoDate.optional(), bindingKey: identifierSchema.optional() });

/** Creates the explorer of one caller. Every call is authorised as `explorer.read` and sees every operation logged so far. */
export function createMemoryExplorer(internals: ServiceInternals, context: MemoryCallContext): MemoryExplorer {
  const { store } = internals;
  const company = async () => {
    const companyId = await authorizeCompany(internals.authorize, context, 'explorer.read');
    // Pending log batches first, so the explorer never misses an operation that already returned.
    await internals.logWriter.flush();
    return companyId;
  };

  return {
    async listOperations(query = {}) {
      const { cursor, limit, bindingKey, actor, ...filters } = parseInput(operationQuerySchema, query, 'operation query');
      const companyId = await company();
      let bindingId: string | undefined;
      if (bindingKey !== undefined) {
        // An unknown key matches nothing rather than everything.
        bindingId = (await store.getBindingByKey(companyId, bindingKey))?.id ?? '(none)';
      }
      const filter: MemoryOperationFilter = {
        ...filters,
        companyId,
        ...(bindingId === undefined ? {} : { bindingId }),
        ...(actor === undefined ? {} : { actorId: actor }),
      };
      return readPage(internals.codec, { companyId, listing: 'operations', filter }, { cursor, limit }, (page) =>
        store.listOperations(filter, page),
      );
    },

    async getOperation(operationId) {
      const valid = parseInput(identifierSchema, operationId, 'operation id', 'operationId');
      return store.getOperation(await company(), valid);
    },

    async countOperations(range = {}) {
      const valid = parseInput(rangeSchema, range, 'date range');
      const counts = await store.countOperations({ companyId: await company(), ...valid });
      const byBinding = new Map<string, MemoryBindingOperationCounts>();
      for (const count of counts) {
        const bindingKey = count.bindingKey ?? '(unresolved)';
        const groupKey = `${count.bindingId ?? ''}\u0000${bindingKey}`;
        let group = byBinding.get(groupKey);
        if (group === undefined) {
          group = {
            bindingKey,
            ...(count.bindingId === undefined ? {} : { bindingId: count.bindingId }),
            total: 0,
            succeeded: 0,
            failed: 0,
            droppedOutOfScope: 0,
            byOperation: [],
          };
          byBinding.set(groupKey, group);
        }
        group.total += count.succeeded + count.failed;
        group.succeeded += count.succeeded;
        group.failed += count.failed;
        group.droppedOutOfScope += count.droppedOutOfScope;
        group.byOperation.push(count);
      }
      return [...byBinding.values()];
    },

    async listHookDeliveries(query = {}) {
      const { cursor, limit, ...filters } = parseInput(deliveryQuerySchema, query, 'hook delivery query');
      const companyId = await company();
      const filter: MemoryHookDeliveryFilter = { ...filters, companyId };
      return readPage(internals.codec, { companyId, listing: 'hook-deliveries', filter }, { cursor, limit }, (page) =>
        store.listHookDeliveries(filter, page),
      );
    },

    async listExtractionJobs(query = {}) {
      return listStoredExtractionJobs(internals, context, query, 'explorer.read');
    },

    async metrics(range = {}) {
      const { bindingKey, ...dates } = parseInput(metricsSchema, range, 'metrics range');
      const companyId = await company();
      let bindingId: string | undefined;
      if (bindingKey !== undefined) bindingId = (await store.getBindingByKey(companyId, bindingKey))?.id ?? '(none)';
      return readOperationMetrics(store, { companyId, ...dates, ...(bindingId === undefined ? {} : { bindingId }) });
    },
  };
}
