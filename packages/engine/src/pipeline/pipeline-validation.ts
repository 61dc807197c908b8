import { MemoryValidationError, type MemoryValidationIssue } from '@memplane/core';
import type { EngineFlow } from '../store/engine-store-rows';
import type { PipelineStep, StepCapability, StepConfig, StepRole } from './pipeline-step';

/** What a flow starts with, and what it must have produced by its end. */
export const flowContracts: Readonly<Record<EngineFlow, { inputs: readonly string[]; outputs: readonly string[] }>> = {
  memorize: { inputs: ['scope', 'input', 'options'], outputs: ['memorized'] },
  retrieve: { inputs: ['scopeRange', 'query', 'options'], outputs: ['context'] },
  evolve: { inputs: ['scope', 'options'], outputs: ['diff'] },
};

/** The three pipelines: steps in order, and the config overrides by step id. */
export interface PipelineSet<Services = unknown> {
  readonly flows: Readonly<Record<EngineFlow, readonly PipelineStep<Services>[]>>;
  readonly configs: ReadonlyMap<string, StepConfig>;
}

/** What the engine can offer steps, for the capability check. */
export interface CapabilityEnvironment {
  readonly profiles: ReadonlyMap<string, { readonly model: unknown; readonly embeddingModel: unknown; readonly mediaInputs?: readonly string[] | undefined }>;
  readonly roleProfiles: Readonly<Partial<Record<StepRole, string>>>;
  readonly hasVectorIndex: boolean;
}

const stepIdPattern = /^[a-z][a-z0-9_]{0,62}$/;
const stateKeyPattern = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;
const knownCapabilities: ReadonlySet<StepCapability> = new Set(['llm', 'embedding', 'media_input', 'vector_search', 'db_write']);

/** The effective config of a step: its defaults, then the overrides. */
export function effectiveConfig(step: PipelineStep<unknown>, configs: ReadonlyMap<string, StepConfig>): StepConfig {
  return { ...step.defaultConfig, ...configs.get(step.stepId) };
}

function checkConfig(path: string, config: StepConfig, environment: CapabilityEnvironment, issues: MemoryValidationIssue[]): void {
  const { llmProfile, retries, timeoutMs } = config;
  if (llmProfile !== undefined && (typeof llmProfile !== 'string' || !environment.profiles.has(llmProfile))) {
    issues.push({ path: `${path}.llmProfile`, message: `names no profile (known: ${[...environment.profiles.keys()].join(', ')})` });
  }
  if (retries !== undefined && !(Number.isSafeInteger(retries) && (retries as number) >= 0 && (retries as number) <= 10)) {
    issues.push({ path: `${path}.retries`, message: 'must be an integer from 0 to 10' });
  }
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && (timeoutMs as number) >= 1)) {
    issues.push({ path: `${path}.timeoutMs`, message: 'must be a positive integer' });
  }
}

function profileOf(step: PipelineStep<unknown>, config: StepConfig, environment: CapabilityEnvironment): string {
  return typeof config.llmProfile === 'string' ? config.llmProfile : (environment.roleProfiles[step.role] ?? 'default');
}

/** Issues with one step's contract and the capabilities it needs. */
function checkStep(flow: EngineFlow, step: PipelineStep<unknown>, config: StepConfig, environment: CapabilityEnvironment, issues: MemoryValidationIssue[]): void {
  const path = `${flow}.${String(step.stepId)}`;
  if (typeof step.run !== 'function') issues.push({ path: `${path}.run`, message: 'must be a function' });
  for (const key of [...(step.requires ?? []), ...(step.produces ?? [])]) {
    if (typeof key !== 'string' || !stateKeyPattern.test(key)) issues.push({ path: `${path}.requires`, message: `state key ${JSON.stringify(key)} is not a valid name` });
  }
  for (const capability of [...(step.capabilities ?? []), ...(step.optionalCapabilities ?? [])]) {
    if (!knownCapabilities.has(capability)) issues.push({ path: `${path}.capabilities`, message: `unknown capability ${JSON.stringify(capability)}` });
  }
  checkConfig(`${path}.config`, config, environment, issues);
  const profile = environment.profiles.get(profileOf(step, config, environment));
  for (const capability of step.capabilities ?? []) {
    if (capability === 'llm' && profile?.model === undefined) issues.push({ path: `${path}.capabilities`, message: `needs an LLM, and profile "${profileOf(step, config, environment)}" has no model` });
    if (capability === 'embedding' && profile?.embeddingModel === undefined) issues.push({ path: `${path}.capabilities`, message: `needs embeddings, and profile "${profileOf(step, config, environment)}" has no embedding model` });
    if (capability === 'media_input' && (profile?.model === undefined || (profile.mediaInputs ?? []).length === 0)) {
      issues.push({ path: `${path}.capabilities`, message: `reads files, and profile "${profileOf(step, config, environment)}" has no model with mediaInputs` });
    }
    if (capability === 'vector_search' && !environment.hasVectorIndex) issues.push({ path: `${path}.capabilities`, message: 'needs vector search, and the engine has no vector index' });
  }
}

/**
 * Static validation of a pipeline set (§8.4): unique well-formed step ids across flows, every
 * `requires` produced earlier (or a flow input), each flow's outputs still produced, config
 * values and profiles that exist, and the capabilities each step cannot run without. Throws
 * `MemoryValidationError` listing every problem; nothing is changed.
 */
export function validatePipelineSet(set: PipelineSet<unknown>, environment: CapabilityEnvironment, target = 'pipeline change'): void {
  const issues: MemoryValidationIssue[] = [];
  const seen = new Set<string>();
  for (const flow of Object.keys(flowContracts) as EngineFlow[]) {
    const available = new Set(flowContracts[flow].inputs);
    for (const step of set.flows[flow]) {
      const path = `${flow}.${String(step.stepId)}`;
      if (typeof step.stepId !== 'string' || !stepIdPattern.test(step.stepId)) issues.push({ path, message: 'step_id must be lowercase letters, digits and _ (at most 63)' });
      else if (seen.has(step.stepId)) issues.push({ path, message: 'step_id is used twice' });
      seen.add(step.stepId);
      for (const key of step.requires ?? []) {
        if (!available.has(key)) issues.push({ path: `${path}.requires.${key}`, message: 'no earlier step produces it and it is not a flow input' });
      }
      checkStep(flow, step, effectiveConfig(step, set.configs), environment, issues);
      for (const key of step.produces ?? []) available.add(key);
    }
    for (const output of flowContracts[flow].outputs) {
      if (!available.has(output)) issues.push({ path: `${flow}.${output}`, message: `the ${flow} pipeline must produce "${output}"` });
    }
  }
  for (const stepId of set.configs.keys()) {
    if (!seen.has(stepId)) issues.push({ path: `config.${stepId}`, message: 'configures a step that is in no pipeline' });
  }
  if (issues.length > 0) throw new MemoryValidationError({ target, issues });
}
