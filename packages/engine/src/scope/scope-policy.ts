import { MemoryConfigurationError } from '@memplane/core';

/**
 * The cross-scope policy (§7.2): how wide a read may reach and how many candidates it may pull.
 * Every cap is checked before a query runs.
 */
export interface ScopePolicy {
  /** Most scope combinations an IN-expanded selector may name (product of IN sizes). Default 64. */
  readonly maxScopeCombinations: number;
  /** Most items a retrieve may return. Default 50. */
  readonly maxTopK: number;
  /** Most vector-recall candidates per retrieve. Default 200. */
  readonly maxVectorCandidates: number;
  /** Most lexical candidates per retrieve. Default 500. */
  readonly maxLexicalCandidates: number;
  /** Most candidates an LLM rerank or sufficiency check may see. Default 30. */
  readonly maxRerankCandidates: number;
}

/** The defaults of {@link ScopePolicy}. */
export const defaultScopePolicy: ScopePolicy = {
  maxScopeCombinations: 64,
  maxTopK: 50,
  maxVectorCandidates: 200,
  maxLexicalCandidates: 500,
  maxRerankCandidates: 30,
};

/** Merges user overrides over the defaults; refuses caps that are not positive integers. */
export function resolveScopePolicy(overrides: Partial<ScopePolicy> | undefined): ScopePolicy {
  const policy = { ...defaultScopePolicy, ...overrides };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MemoryConfigurationError({ message: `Invalid scope policy: ${name} must be a positive integer.` });
    }
  }
  return policy;
}
