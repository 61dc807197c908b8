import { MemoryNotFoundError, MemoryValidationError } from '@memplane/core';
import type { EngineFlow, PipelineRevisionRow } from '../store/engine-store-rows';
import type { PipelineStep, StepConfig } from './pipeline-step';
import { validatePipelineSet, type CapabilityEnvironment, type PipelineSet } from './pipeline-validation';

/** One pipeline change (§8.3). */
export type PipelineChange<Services> =
  | { readonly kind: 'config'; readonly stepId: string; readonly config: StepConfig }
  | { readonly kind: 'insert_after' | 'insert_before'; readonly stepId: string; readonly step: PipelineStep<Services> }
  | { readonly kind: 'replace'; readonly stepId: string; readonly step: PipelineStep<Services> }
  | { readonly kind: 'remove'; readonly stepId: string };

function locate<Services>(set: PipelineSet<Services>, stepId: string): { flow: EngineFlow; index: number } {
  for (const flow of ['memorize', 'retrieve', 'evolve'] as const) {
    const index = set.flows[flow].findIndex((step) => step.stepId === stepId);
    if (index >= 0) return { flow, index };
  }
  throw new MemoryValidationError({ target: 'pipeline change', issues: [{ path: 'stepId', message: `no pipeline has a step "${stepId}"` }] });
}

function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The set after a change, not yet validated. */
export function applyChange<Services>(set: PipelineSet<Services>, change: PipelineChange<Services>): PipelineSet<Services> {
  const { flow, index } = locate(set, change.stepId);
  const steps = [...set.flows[flow]];
  const configs = new Map(set.configs);
  switch (change.kind) {
    case 'config':
      if (!isJson(change.config)) throw new MemoryValidationError({ target: 'pipeline change', issues: [{ path: 'config', message: 'must be a JSON object' }] });
      configs.set(change.stepId, { ...configs.get(change.stepId), ...(JSON.parse(JSON.stringify(change.config)) as StepConfig) });
      break;
    case 'insert_after':
      steps.splice(index + 1, 0, change.step);
      break;
    case 'insert_before':
      steps.splice(index, 0, change.step);
      break;
    case 'replace':
      steps.splice(index, 1, change.step);
      if (change.step.stepId !== change.stepId) configs.delete(change.stepId);
      break;
    case 'remove':
      steps.splice(index, 1);
      configs.delete(change.stepId);
      break;
  }
  return { flows: { ...set.flows, [flow]: steps }, configs };
}

/** A short description of a change for the revision log. */
export function describeChange(change: PipelineChange<unknown>): string {
  if (change.kind === 'config') return `config ${change.stepId} ${JSON.stringify(change.config)}`;
  if (change.kind === 'remove') return `remove ${change.stepId}`;
  return `${change.kind} ${change.stepId} ${change.step.stepId}`;
}

/** Applies and validates a change; throws `MemoryValidationError` and leaves `set` as it was when invalid. */
export function changedSet<Services>(set: PipelineSet<Services>, change: PipelineChange<Services>, environment: CapabilityEnvironment): PipelineSet<Services> {
  const next = applyChange(set, change);
  validatePipelineSet(next as PipelineSet<unknown>, environment);
  return next;
}

/** The revision to roll back to, or `MemoryNotFoundError`. */
export function findRevision(revisions: readonly PipelineRevisionRow[], revision: number): PipelineRevisionRow {
  const found = revisions.find((row) => row.revision === revision);
  if (found === undefined) throw new MemoryNotFoundError({ resourceId: `pipeline revision ${revision}`, message: `There is no pipeline revision ${revision}.` });
  return found;
}
