import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import type { PipelineSet } from '../pipeline/pipeline-validation';
import { summarizeCategoriesStep } from './category-summaries';
import { defaultEvolveSteps } from './evolve-steps';
import { inferIntentionStep, persistIndexStep } from './memorize-persist';
import { memorizeExtractionSteps } from './memorize-steps';
import { buildContextStep, recallItemsStep, verifyRerankStep } from './retrieve-recall';
import { categorySufficiencyStep, intentionSufficiencyStep, routeCategoryStep, routeIntentionStep } from './retrieve-routing';

type Step = PipelineStep<EngineServices>;

/** The built-in steps of the three flows, in default order (§8.1). */
export const builtInFlows: Readonly<Record<'memorize' | 'retrieve' | 'evolve', readonly Step[]>> = {
  memorize: [...memorizeExtractionSteps, inferIntentionStep, persistIndexStep],
  retrieve: [routeIntentionStep, intentionSufficiencyStep, routeCategoryStep, categorySufficiencyStep, recallItemsStep, verifyRerankStep, buildContextStep],
  // Summaries come after the evolve writes, so they describe the anchors those writes left.
  evolve: [...defaultEvolveSteps.slice(0, -1), summarizeCategoriesStep, ...defaultEvolveSteps.slice(-1)],
};

/** The default pipeline set: the built-in steps, no config overrides. */
export function defaultPipelineSet(): PipelineSet<EngineServices> {
  return { flows: { memorize: [...builtInFlows.memorize], retrieve: [...builtInFlows.retrieve], evolve: [...builtInFlows.evolve] }, configs: new Map() };
}

/** The ref of a built-in step in stored revisions. */
export function builtInRef(step: Step): string {
  return `builtin:${step.stepId}`;
}
