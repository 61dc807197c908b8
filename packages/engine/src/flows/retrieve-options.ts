import { jsonValueSchema, MemoryValidationError, type JsonValue } from '@memplane/core';
import { memoryKinds } from '@memplane/rules';
import { z } from 'zod';
import type { ScopePolicy } from '../scope/scope-policy';
import { ScopePolicyError } from '../scope/scope-policy-error';
import type { ItemKind } from '../store/engine-store-rows';

/** Options of `retrieve`. */
export interface RetrieveOptions {
  /** Items to return. Default 10; refused above the policy's `maxTopK`. */
  readonly topK?: number | undefined;
  /**
   * The deepest layer to descend to: `intention` stops after the intention, `category` after the
   * categories, `item` (default) recalls items unless a sufficiency check stops earlier.
   */
  readonly depth?: 'intention' | 'category' | 'item' | undefined;
  /** Only items of these kinds. */
  readonly kinds?: readonly ItemKind[] | undefined;
  /** Only items in one of these categories. */
  readonly categories?: readonly string[] | undefined;
  /** Also return `pending` items (for review tools). Default false: only `approved`. */
  readonly includePending?: boolean | undefined;
  /** Only items whose metadata has these top-level values. */
  readonly metadataEquals?: Readonly<Record<string, JsonValue>> | undefined;
  /** Candidates each recall may pull; capped by the policy, refused above it. */
  readonly candidates?: number | undefined;
  /** Run the model sufficiency checks (when a model is configured). Default true; false always descends to `depth`. */
  readonly sufficiencyChecks?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Checked options with defaults and candidate limits that respect the policy. */
export interface ResolvedRetrieveOptions {
  readonly topK: number;
  readonly depth: 'intention' | 'category' | 'item';
  readonly kinds: readonly ItemKind[] | undefined;
  readonly categories: readonly string[] | undefined;
  readonly includePending: boolean;
  readonly sufficiencyChecks: boolean;
  readonly metadataEquals: Readonly<Record<string, JsonValue>> | undefined;
  readonly lexicalLimit: number;
  readonly vectorLimit: number;
  readonly rerankLimit: number;
}

const optionsSchema = z.strictObject({
  topK: z.number().int().min(1).optional(),
  depth: z.enum(['intention', 'category', 'item']).optional(),
  kinds: z.array(z.enum(memoryKinds)).max(11).optional(),
  categories: z.array(z.string().min(1).max(64)).max(100).optional(),
  includePending: z.boolean().optional(),
  metadataEquals: z.record(z.string(), jsonValueSchema).optional(),
  candidates: z.number().int().min(1).optional(),
  sufficiencyChecks: z.boolean().optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal).optional(),
});

/** Checks retrieve options against the policy before any query runs. */
export function resolveRetrieveOptions(options: unknown, policy: ScopePolicy): ResolvedRetrieveOptions {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    throw new MemoryValidationError({ target: 'retrieve options', issues: parsed.error.issues.map((issue) => ({ path: ['options', ...issue.path].join('.'), message: issue.message })) });
  }
  const value = parsed.data;
  const topK = value.topK ?? 10;
  if (topK > policy.maxTopK) {
    throw new ScopePolicyError({ rule: 'scope.candidate_cap', field: 'options.topK', message: `topK ${topK} is above the policy's maxTopK ${policy.maxTopK}.` });
  }
  const maxCandidates = Math.max(policy.maxLexicalCandidates, policy.maxVectorCandidates);
  if (value.candidates !== undefined && value.candidates > maxCandidates) {
    throw new ScopePolicyError({ rule: 'scope.candidate_cap', field: 'options.candidates', message: `candidates ${value.candidates} is above the policy's cap ${maxCandidates}.` });
  }
  const wanted = value.candidates ?? Math.max(topK * 10, 50);
  return {
    topK,
    depth: value.depth ?? 'item',
    kinds: value.kinds,
    categories: value.categories,
    includePending: value.includePending ?? false,
    sufficiencyChecks: value.sufficiencyChecks ?? true,
    metadataEquals: value.metadataEquals as ResolvedRetrieveOptions['metadataEquals'],
    lexicalLimit: Math.min(policy.maxLexicalCandidates, Math.max(wanted, topK)),
    vectorLimit: Math.min(policy.maxVectorCandidates, Math.max(wanted, topK)),
    rerankLimit: Math.min(policy.maxRerankCandidates, Math.max(wanted, topK)),
  };
}
