import type { MemoryCostEvent } from '@memplane/service';
import type { PluginContext } from '@paperclipai/plugin-sdk';

/** The metric a directly billed memory call is mirrored to, in cents. */
export const memoryCostMetric = 'memplane.memory_cost_cents';

/**
 * Mirrors a directly billed memory call into Paperclip. The plugin SDK has no way to write
 * Paperclip's `cost_events` (its context only reads issue cost summaries), so the cost goes to
 * the plugin's metrics with the company, binding, provider, agent and run as tags, and stays in
 * memplane's own `cost_events` with its raw usage. Counters a provider did not report are not
 * invented: a call without `costCents` writes no metric.
 */
export function createCostMirror(ctx: PluginContext): (event: MemoryCostEvent) => Promise<undefined> {
  return async (event) => {
    const reported = event.usage.map((usage) => usage.costCents).filter((cents): cents is number => cents !== undefined);
    if (reported.length === 0) return undefined;
    const tags: Record<string, string> = { companyId: event.companyId, bindingKey: event.bindingKey, providerId: event.providerId };
    if (event.agentId !== undefined) tags.agentId = event.agentId;
    const runId = event.heartbeatRunId ?? event.runId;
    if (runId !== undefined) tags.runId = runId;
    await ctx.metrics.write(memoryCostMetric, reported.reduce((sum, cents) => sum + cents, 0), tags);
    return undefined;
  };
}
