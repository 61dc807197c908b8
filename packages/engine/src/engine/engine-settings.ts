import type { AssistantTurns } from '@memplane/rules';
import type { z } from 'zod';
import type { PipelineStep, StepRole } from '../pipeline/pipeline-step';
import type { LlmProfile } from '../profiles/llm-profiles';
import type { EngineRunner } from '../runner/engine-runner';
import type { ScopePolicy } from '../scope/scope-policy';
import type { EngineStore } from '../store/engine-store';
import type { VectorIndex } from '../store/vector-index';
import type { CategoryDefinition } from './category-definitions';
import type { EngineServices } from './engine-services';

/** Settings of {@link createMemoryEngine}. */
export interface MemoryEngineSettings {
  /** The scope schema (§5): a zod object of string fields, locked at creation. */
  readonly scope: z.ZodObject;
  /** Fields cross-scope reads must pin (never ANY). Default: the first field of the schema. */
  readonly boundaryFields?: readonly string[] | undefined;
  /** The metadata store. Default: a new in-memory store. */
  readonly store?: EngineStore | undefined;
  /** The vector index. Default: the store's own; `null` turns vector recall off. */
  readonly vectorIndex?: VectorIndex | null | undefined;
  /** Schema provisioning: `create` (default) provisions what is missing; `validate` only checks. */
  readonly ddlMode?: 'create' | 'validate' | undefined;
  /** Named LLM profiles; `default` is required when given. Default: one model-less profile (zero-config). */
  readonly profiles?: (Readonly<Record<string, LlmProfile>> & { readonly default: LlmProfile }) | undefined;
  /** The profile each role uses when a step names none (§4.2, second in precedence). */
  readonly roleProfiles?: Readonly<Partial<Record<StepRole, string>>> | undefined;
  /** The profile whose embedding model embeds items and queries. Default `default`. */
  readonly embeddingProfile?: string | undefined;
  /** The user's categories (§2.3). Default: five categories over the taxonomy's kinds. */
  readonly categories?: readonly CategoryDefinition[] | undefined;
  /** Cross-scope policy overrides (§7.2). */
  readonly policy?: Partial<ScopePolicy> | undefined;
  /** The runner (§9). Default: the synchronous runner. */
  readonly runner?: EngineRunner | undefined;
  /** User steps a stored pipeline revision uses, so a restarted engine can restore it. */
  readonly steps?: readonly PipelineStep<EngineServices>[] | undefined;
  /** The clock. Default `() => new Date()`. */
  readonly now?: (() => Date) | undefined;
  /** How rule-based extraction (a profile without a model) reads conversations. */
  readonly extraction?: EngineExtractionSettings | undefined;
}

/** How rule-based extraction reads conversations. */
export interface EngineExtractionSettings {
  /**
   * What happens to the turns of an assistant (role `assistant`, `ai` or `model`, any case):
   * `skip` (default) extracts nothing from them, so its greetings and offers of help never become
   * memories; `keep` extracts from them like any other turn. Named speakers ("Caroline") are never
   * assistants. Extraction with a model sees every turn with its role either way.
   */
  readonly assistantTurns?: AssistantTurns | undefined;
}
