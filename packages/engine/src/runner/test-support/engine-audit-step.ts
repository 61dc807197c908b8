import type { EngineServices } from '../../engine/engine-services';
import type { PipelineStep } from '../../pipeline/pipeline-step';

/** The process this is, in the engine crash tests (the test itself is `parent`). */
export const workerName = (): string => process.env.MEMPLANE_WORKER_NAME ?? 'parent';

/**
 * A user step the crash tests insert into the memorize pipeline, before anything is persisted. In
 * the process named by `MEMPLANE_HANG_IN` it says `in-step` (with the run id) and hangs until the
 * test kills it; elsewhere it notes which process ran it and says `step-ran`.
 */
export const auditStep: PipelineStep<EngineServices> = {
  stepId: 'audit_candidates',
  role: 'custom',
  requires: ['candidates'],
  produces: [],
  capabilities: [],
  async run({ runId, note }) {
    if (process.env.MEMPLANE_HANG_IN === workerName()) {
      process.send?.({ type: 'in-step', runId });
      await new Promise<never>(() => undefined);
    }
    note(`audited by ${workerName()}`);
    process.send?.({ type: 'step-ran', runId });
  },
};
