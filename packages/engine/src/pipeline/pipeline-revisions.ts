import type { JsonValue } from '@memplane/core';
import { canonicalHash } from '../support/canonical-hash';
import type { EngineFlow, PipelineRevisionRow } from '../store/engine-store-rows';
import type { PipelineStep, StepConfig } from './pipeline-step';
import type { PipelineSet } from './pipeline-validation';

/** The stable reference of a step implementation: built-ins by id, user steps by id and registration. */
export type StepRefs = WeakMap<PipelineStep<unknown>, string>;

/** The JSON form of a pipeline set, stored with each revision (step topology + step configs, §10.1). */
export function describePipelineSet(set: PipelineSet<unknown>, refs: StepRefs): JsonValue {
  const flows: Record<string, JsonValue> = {};
  for (const [flow, steps] of Object.entries(set.flows)) {
    flows[flow] = steps.map((step) => ({
      stepId: step.stepId,
      ref: refs.get(step) ?? `unregistered:${step.stepId}`,
      role: step.role,
      requires: [...step.requires],
      produces: [...step.produces],
      capabilities: [...step.capabilities],
      optionalCapabilities: [...(step.optionalCapabilities ?? [])],
    }));
  }
  const configs: Record<string, JsonValue> = {};
  for (const [stepId, config] of [...set.configs].sort(([a], [b]) => (a < b ? -1 : 1))) configs[stepId] = { ...config };
  return { flows, configs };
}

/** A revision row for a set. */
export function revisionRow(revision: number, change: string, set: PipelineSet<unknown>, refs: StepRefs, now: string): PipelineRevisionRow {
  const definition = describePipelineSet(set, refs);
  return { revision, change, definition, definitionHash: canonicalHash(definition), createdAt: now };
}

/**
 * Rebuilds the pipeline set a stored revision describes, from the step implementations known by
 * ref. Returns the refs it cannot resolve instead when some are missing.
 */
export function restorePipelineSet<Services>(
  definition: JsonValue,
  known: ReadonlyMap<string, PipelineStep<Services>>,
): { set: PipelineSet<Services> } | { missing: string[] } {
  const described = definition as { flows: Record<EngineFlow, Array<{ ref: string }>>; configs: Record<string, StepConfig> };
  const missing: string[] = [];
  const flows = {} as Record<EngineFlow, PipelineStep<Services>[]>;
  for (const flow of ['memorize', 'retrieve', 'evolve'] as const) {
    flows[flow] = [];
    for (const { ref } of described.flows[flow] ?? []) {
      const step = known.get(ref);
      if (step === undefined) missing.push(ref);
      else flows[flow].push(step);
    }
  }
  if (missing.length > 0) return { missing };
  return { set: { flows, configs: new Map(Object.entries(described.configs ?? {})) } };
}
