import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { flowContracts } from '../pipeline/pipeline-validation';
import type { RunResolver } from '../runner/engine-runner';
import type { EngineStore } from '../store/engine-store';
import type { ScopeRange, ServiceMetaRow } from '../store/engine-store-rows';
import { canonicalHash } from '../support/canonical-hash';
import { type FlowRunContext, type RunLogCarry, resolveFlowSteps, runLogRow } from './engine-runs';

/** A store only this process can reach: its identity includes a token of this process. */
const processLocalTokens = new WeakMap<EngineStore, string>();

/**
 * The identity a run carries, so only an engine on the same store with the same scope schema
 * resumes it: the scope schema hash and the store's recorded meta (its name and the moment it was
 * first provisioned, the same in every process that opens it). An in-memory store cannot be shared
 * between processes, so its identity also holds a token of this store object.
 */
export function engineIdentity(store: EngineStore, meta: ServiceMetaRow): string {
  let local = '';
  if (store.name === 'memory') {
    local = processLocalTokens.get(store) ?? randomUUID();
    processLocalTokens.set(store, local);
  }
  return `${meta.scopeSchemaHash.slice(0, 16)}:${canonicalHash({ store: store.name, scopeSchemaHash: meta.scopeSchemaHash, createdAt: meta.createdAt, local })}`;
}

const carrySchema = z.object({
  scopeRange: z.record(z.string(), z.array(z.string())),
  inputSummary: z.string().max(10_000),
  startedAt: z.string().max(64),
  outputKey: z.string().min(1).max(200),
});

/**
 * The engine's resolver for a queued runner (§9): it resumes a run of this engine that another
 * process started, with the steps of the run's own pipeline revision as stored, this process's
 * registered step implementations and the engine's services for that revision. A run of another
 * engine is not its own (undefined); a revision with a step not registered here, or whose carried
 * run-log data is malformed, is refused with the reason, and the runner leaves it for another
 * worker. The worker that finishes a resolved run writes its run log (the store keeps one row per run id).
 */
export function createEngineRunResolver(context: FlowRunContext): RunResolver {
  return async (run) => {
    if (run.meta.engine !== context.identity) return undefined;
    const carried = carrySchema.safeParse(run.meta.log);
    if (!carried.success) return { refused: `run ${run.runId} of this engine carries no valid run-log data (${carried.error.issues[0]?.path.join('.') ?? 'log'})` };
    if (carried.data.outputKey !== flowContracts[run.flow].outputs[0]) return { refused: `run ${run.runId} names output "${carried.data.outputKey}", not the ${run.flow} flow's` };
    const restored = await context.controller.restore(run.pipelineRevision);
    if (restored === undefined) return { refused: `pipeline revision ${run.pipelineRevision} of run ${run.runId} is not in this engine's store` };
    if ('missing' in restored) {
      return { refused: `pipeline revision ${run.pipelineRevision} uses steps not registered in this process (${restored.missing.join(', ')}); give them to the engine here in settings.steps` };
    }
    const services = context.servicesFor(run.pipelineRevision);
    const carry: RunLogCarry = { ...carried.data, scopeRange: carried.data.scopeRange as ScopeRange };
    return {
      steps: resolveFlowSteps(restored.set, run.flow, context.roleProfiles),
      services,
      finish: async (outcome) => {
        const { row } = runLogRow({ id: run.runId, flow: run.flow, pipelineRevision: run.pipelineRevision }, carry, outcome, services.now());
        await services.store.appendRun(row);
      },
    };
  };
}
