import { MemoryConfigurationError, MemoryValidationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import { ownCompanyOf, referenceOf } from '../actor/memory-actor';
import { activityEntry } from '../audit/activity-entry';
import { parseArgument } from '../control/parse-request';
import { authorizeCompany } from '../policy/authorize-company';
import type { MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryOperationEntry } from '../store/memory-service-records';

/** What to prune. */
export interface MemoryPruneRequest {
  /**
   * Delete operations created before this time (ISO 8601). Default: now minus
   * `operationLog.retentionDays`. It may not be later than now minus the retention floor
   * (`operationLog.retentionFloorDays`, default 7 days), and never in the future.
   */
  before?: string;
}

/** What one prune did in one company. */
export interface MemoryCompanyPrune {
  /** The company. */
  companyId: string;
  /** Operations deleted. */
  deleted: number;
  /** Idempotency keys of queued hook deliveries deleted: those whose last attempt is older than the cut. */
  deliveryKeysDeleted: number;
  /** The id of the prune's own log entry (`retention_prune`). */
  operationId: string;
}

/** What a prune did. */
export interface MemoryPruneReport {
  /** The cut: operations created before it were deleted. */
  before: string;
  /** Per company pruned. */
  companies: MemoryCompanyPrune[];
}

const requestSchema = z
  .strictObject({
    before: z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString()).optional(),
  })
  .optional();

const dayMs = 24 * 3600 * 1000;

/**
 * Applies the retention window to the operation log. Each company's prune is one store
 * transaction that deletes its operations older than the cut and writes a `retention_prune`
 * entry saying who pruned, the cut and how many were deleted, so the prune is itself in the
 * log; the company's delivery keys (`memory_delivery_keys`) last touched before the cut go
 * too; a `log.pruned` activity entry with both counts follows. Authorised as `log.prune`: under
 * the default policy the system, an operator granted the company, or a company admin
 * (`role: 'admin'`). A cut in the future or younger than the retention floor is refused with
 * `MemoryValidationError` (field `before`), whoever asks. Without `companyId` in the context,
 * the system prunes every company that has operations older than the cut.
 */
export async function pruneOperationLog(internals: ServiceInternals, context: MemoryCallContext, request: MemoryPruneRequest): Promise<MemoryPruneReport> {
  const valid = parseArgument(requestSchema, request, 'prune request', 'request') ?? {};
  const days = internals.retention.operationLogDays;
  if (valid.before === undefined && days === undefined) {
    throw new MemoryConfigurationError({ message: 'No retention window: set operationLog.retentionDays, or pass `before`.' });
  }
  const now = Date.parse(internals.now());
  const before = valid.before ?? new Date(now - days! * dayMs).toISOString();
  const refuseCut = (message: string): never => {
    throw new MemoryValidationError({ target: 'prune request', issues: [{ path: 'before', message }] });
  };
  if (Date.parse(before) > now) refuseCut('must not be in the future');
  const floor = internals.retention.floorDays;
  if (Date.parse(before) > now - floor * dayMs) {
    refuseCut(`must be at least ${floor} days ago: entries younger than the retention floor are never pruned`);
  }
  // Entries still buffered are written first, so the cut applies to them too.
  await internals.logWriter.flush();
  const everyCompany = context.actor.kind === 'system' && context.companyId === undefined && ownCompanyOf(context.actor) === undefined;
  const candidates = everyCompany ? await internals.store.listCompaniesWithOperationsBefore(before) : [undefined];
  const report: MemoryPruneReport = { before, companies: [] };
  for (const candidate of candidates) {
    const companyId = await authorizeCompany(internals.authorize, candidate === undefined ? context : { ...context, companyId: candidate }, 'log.prune');
    const entry: MemoryOperationEntry = {
      id: internals.createId('op'),
      companyId,
      operation: 'retention_prune',
      status: 'succeeded',
      actor: referenceOf(context.actor),
      scope: { companyId },
      usage: [],
      latencyMs: 0,
      droppedOutOfScope: 0,
      warnings: [],
      details: { before, ...(valid.before === undefined ? { retentionDays: days } : {}) },
      createdAt: internals.now(),
    };
    const deleted = await internals.store.pruneOperations(companyId, before, entry);
    // A delivery key only guards re-runs of a queued job; it goes with the log of its write.
    const deliveryKeysDeleted = await internals.store.pruneDeliveryKeys(companyId, before);
    await internals.store.appendActivity([
      activityEntry(internals, context.actor, companyId, 'log.pruned', { type: 'operation_log', id: 'memory_operations' }, null, {
        before,
        deleted,
        deliveryKeysDeleted,
        operationId: entry.id,
        ...(valid.before === undefined ? { retentionDays: days } : {}),
      }),
    ]);
    report.companies.push({ companyId, deleted, deliveryKeysDeleted, operationId: entry.id });
  }
  return report;
}
