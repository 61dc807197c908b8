import { MemoryConfigurationError } from '@memplane/core';
import { builtInFlows, builtInRef, defaultPipelineSet } from '../flows/default-pipelines';
import { changedSet, describeChange, findRevision, type PipelineChange } from '../pipeline/pipeline-editor';
import { restorePipelineSet, revisionRow, type StepRefs } from '../pipeline/pipeline-revisions';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { validatePipelineSet, type CapabilityEnvironment, type PipelineSet } from '../pipeline/pipeline-validation';
import type { EngineStore } from '../store/engine-store';
import type { PipelineRevisionRow } from '../store/engine-store-rows';
import type { EngineServices } from './engine-services';

type Step = PipelineStep<EngineServices>;

/** The current pipelines and their revision, changed only through validated, recorded changes (§8.4). */
export interface PipelineController {
  current(): { revision: number; set: PipelineSet<EngineServices> };
  apply(change: PipelineChange<EngineServices>): Promise<PipelineRevisionRow>;
  rollback(revision: number): Promise<PipelineRevisionRow>;
  /** A stored revision's set rebuilt with the steps this engine knows (the refs it lacks instead), or undefined when there is no such revision. */
  restore(revision: number): Promise<{ set: PipelineSet<EngineServices> } | { missing: string[] } | undefined>;
}

/** Loads the latest stored revision (or records the defaults as revision 1) and returns the controller. */
export async function createPipelineController(store: EngineStore, environment: CapabilityEnvironment, userSteps: readonly Step[], now: () => string): Promise<PipelineController> {
  const refs: StepRefs = new WeakMap();
  const known = new Map<string, Step>();
  const register = (step: Step, ref: string) => {
    refs.set(step as PipelineStep<unknown>, ref);
    known.set(ref, step);
  };
  for (const step of Object.values(builtInFlows).flat()) register(step, builtInRef(step));
  const userRef = (step: Step): string => {
    const existing = refs.get(step as PipelineStep<unknown>);
    if (existing !== undefined) return existing;
    let ref = `user:${step.stepId}`;
    for (let suffix = 2; known.has(ref); suffix += 1) ref = `user:${step.stepId}#${suffix}`;
    register(step, ref);
    return ref;
  };
  for (const step of userSteps) userRef(step);

  const revisions = await store.listPipelineRevisions();
  const latest = revisions.at(-1);
  let state: { revision: number; set: PipelineSet<EngineServices> };
  if (latest === undefined) {
    const set = defaultPipelineSet();
    validatePipelineSet(set as PipelineSet<unknown>, environment, 'default pipelines');
    await store.appendPipelineRevision(revisionRow(1, 'defaults', set as PipelineSet<unknown>, refs, now()));
    state = { revision: 1, set };
  } else {
    const restored = restorePipelineSet(latest.definition, known);
    if ('missing' in restored) {
      throw new MemoryConfigurationError({ message: `Pipeline revision ${latest.revision} uses steps this engine was not given (${restored.missing.join(', ')}): pass them as settings.steps, or roll back.` });
    }
    validatePipelineSet(restored.set as PipelineSet<unknown>, environment, `pipeline revision ${latest.revision}`);
    state = { revision: latest.revision, set: restored.set };
  }

  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };
  const accept = async (set: PipelineSet<EngineServices>, change: string): Promise<PipelineRevisionRow> => {
    for (const steps of Object.values(set.flows)) for (const step of steps) userRef(step);
    const row = revisionRow(state.revision + 1, change, set as PipelineSet<unknown>, refs, now());
    await store.appendPipelineRevision(row);
    state = { revision: row.revision, set };
    return row;
  };
  return {
    current: () => state,
    async restore(revision) {
      if (revision === state.revision) return { set: state.set };
      const row = (await store.listPipelineRevisions()).find((entry) => entry.revision === revision);
      return row === undefined ? undefined : restorePipelineSet(row.definition, known);
    },
    apply: (change) => serialised(() => accept(changedSet(state.set, change, environment), describeChange(change as PipelineChange<unknown>))),
    rollback: (revision) =>
      serialised(async () => {
        const target = findRevision(await store.listPipelineRevisions(), revision);
        const restored = restorePipelineSet(target.definition, known);
        if ('missing' in restored) throw new MemoryConfigurationError({ message: `Revision ${revision} uses steps this engine no longer has: ${restored.missing.join(', ')}.` });
        validatePipelineSet(restored.set as PipelineSet<unknown>, environment, `rollback to revision ${revision}`);
        return accept(restored.set, `rollback to ${revision}`);
      }),
  };
}
