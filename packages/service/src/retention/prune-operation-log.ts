import { MemoryConfigurationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import { ownCompanyOf, referenceOf } from '../actor/memory-actor';
import { authorizeCompany } from '../policy/authorize-company';
import type { MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryOperationEntry } from '../store/memory-service-records';

/** What to prune. */
export interface MemoryPruneRequest {
  /** Delete operations created before this time (ISO 8601). Default: now minus `operationLog.retentionDays`. */
  before?: string;
}

/** What one prune did in one company. */
export interface MemoryCompanyPrune {
  /** The company. */
  companyId: string;
  /** Operations deleted. */
  deleted: number;
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

const requestSchema = z.strictObject({
  before: z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString()).optional(),
});

const dayMs = 24 * 3600 * 1000;

/**
 * Applies the retention window to the operation log. Each company's prune is one store
 * transaction that deletes its operations older than the cut and writes a `retention_prune`
 * entry saying who pruned, the cut and how many were deleted, so the prune is itself in the
 * log. The system (or an operator or company member, for their own company) may prune; agents
 * may not. Without `companyId` in the context, the system prunes every company that has
 * operations older than the cut, each authorised as `log.prune`.
 */
export async function pruneOperationLog(internals: ServiceInternals, context: MemoryCallContext, request: MemoryPruneRequest): Promise<MemoryPruneReport> {
  const valid = parseInput(requestSchema, request, 'prune request');
  const days = internals.retention.operationLogDays;
  if (valid.before === undefined && days === undefined) {
    throw new MemoryConfigurationError({ message: 'No retention window: set operationLog.retentionDays, or pass `before`.' });
  }
  const before = valid.before ?? new Date(Date.parse(internals.now()) - days! * dayMs).toISOString();
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
    report.companies.push({ companyId, deleted, operationId: entry.id });
  }
  return report;
}
