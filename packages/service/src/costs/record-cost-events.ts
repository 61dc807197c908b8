import type { MemoryScope, MemoryUsage } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import { hasBillableCounters } from '../runtime/usage-attribution';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryCostEventEntry } from '../store/memory-accounting-records';

/** What the operation knows when its provider billed directly. */
export interface BilledOperation {
  operationId: string;
  companyId: string;
  binding: MemoryBinding;
  scope: MemoryScope;
  /** The agent billed: the one the scope names, else the calling agent. */
  agentId: string | undefined;
  heartbeatRunId: string | undefined;
  usage: readonly MemoryUsage[];
  occurredAt: string;
}

const defined = <Value extends object>(value: Value): Value =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Value;

/**
 * Records the `cost_events` of a directly billed operation: one row per usage entry that
 * reports counters, linked to the operation, binding, company, agent, issue and run. Counters
 * are copied as reported, never invented. When `settings.recordCostEvent` mirrors costs into
 * the host's ledger, the id it returns is kept on the rows. Returns the id of the first row,
 * which the operation's log entry carries, or undefined when nothing was billable or the
 * ledger could not be written (reported to `onBackgroundError`; the operation still succeeds).
 */
export async function recordCostEvents(internals: ServiceInternals, billed: BilledOperation): Promise<string | undefined> {
  const billable = billed.usage.filter(hasBillableCounters);
  if (billable.length === 0) return undefined;
  const entries: MemoryCostEventEntry[] = billable.map((usage) =>
    defined({
      id: internals.createId('cost'),
      companyId: billed.companyId,
      operationId: billed.operationId,
      bindingId: billed.binding.id,
      bindingKey: billed.binding.key,
      provider: usage.provider,
      biller: usage.biller,
      billingType: usage.billingType,
      model: usage.model,
      agentId: billed.agentId,
      issueId: billed.scope.issueId,
      runId: billed.scope.runId,
      heartbeatRunId: billed.heartbeatRunId,
      inputTokens: usage.inputTokens,
      cachedInputTokens: usage.cachedInputTokens,
      outputTokens: usage.outputTokens,
      embeddingTokens: usage.embeddingTokens,
      costCents: usage.costCents,
      raw: usage.raw,
      occurredAt: billed.occurredAt,
    }),
  );
  if (internals.recordCostEvent !== undefined) {
    try {
      const externalId = await internals.recordCostEvent(
        defined({
          costEventId: entries[0]!.id,
          operationId: billed.operationId,
          companyId: billed.companyId,
          agentId: billed.agentId,
          issueId: billed.scope.issueId,
          runId: billed.scope.runId,
          heartbeatRunId: billed.heartbeatRunId,
          bindingKey: billed.binding.key,
          providerId: billed.binding.providerId,
          usage: billable,
        }),
      );
      if (externalId !== undefined) for (const entry of entries) entry.externalId = externalId;
    } catch (error) {
      internals.reportBackgroundError(error, 'recordCostEvent');
    }
  }
  try {
    await internals.store.appendCostEvents(entries);
    return entries[0]!.id;
  } catch (error) {
    internals.reportBackgroundError(error, 'appendCostEvents');
    return undefined;
  }
}
