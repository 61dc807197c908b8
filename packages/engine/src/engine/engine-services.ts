import type { AssistantTurns } from '@memplane/rules';
import type { ResolvedLlmProfile } from '../profiles/llm-profiles';
import type { ScopeModel } from '../scope/scope-model';
import type { ScopePolicy } from '../scope/scope-policy';
import type { EngineStore } from '../store/engine-store';
import type { VectorIndex } from '../store/vector-index';
import type { CategoryDefinition } from './category-definitions';

/** What built-in steps get from the engine. */
export interface EngineServices {
  readonly store: EngineStore;
  readonly vectorIndex: VectorIndex | undefined;
  readonly scopeModel: ScopeModel;
  readonly policy: ScopePolicy;
  readonly categories: readonly CategoryDefinition[];
  readonly taxonomyVersion: string;
  readonly profiles: ReadonlyMap<string, ResolvedLlmProfile>;
  /** The profile that embeds items and queries, when one has an embedding model. */
  readonly embeddingProfile: ResolvedLlmProfile | undefined;
  readonly pipelineRevision: number;
  /** How rule-based extraction treats assistant turns (`extraction.assistantTurns`, default `skip`). */
  readonly extraction: { readonly assistantTurns: AssistantTurns };
  /** The current time, ISO 8601. */
  now(): string;
  /** A new unique id with a prefix, such as `item_…`. */
  newId(prefix: string): string;
}
