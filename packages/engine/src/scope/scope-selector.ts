import { MemoryValidationError, type MemoryValidationIssue } from '@memplane/core';
import type { ScopeRange } from '../store/engine-store-rows';
import type { ScopeModel } from './scope-model';
import { ScopePolicyError } from './scope-policy-error';
import type { ScopePolicy } from './scope-policy';

/** Every value of a field: cross that column (§7.1). Never allowed on a boundary field. */
export const ANY: { readonly any: true } = Object.freeze({ any: true as const });

/** One field of a selector: an exact value, a list of values (IN), or {@link ANY}. */
export type ScopeFieldSelector = string | { readonly in: readonly string[] } | { readonly any: true };

/** A scope selector: every field of the scope model, each exact, IN or ANY. */
export type ScopeSelector = Readonly<Record<string, ScopeFieldSelector>>;

/** A checked selector: the range a store reads and how many scope combinations it names. */
export interface ResolvedScopeSelector {
  readonly range: ScopeRange;
  /** Product of the value counts of the pinned fields. */
  readonly combinations: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a selector against the scope model and the policy, before any query runs: every field
 * must be given (exact, IN or ANY) with valid values; a boundary field is never ANY; IN lists are
 * non-empty; and the product of the IN sizes stays within `maxScopeCombinations`.
 */
export function resolveScopeSelector(model: ScopeModel, selector: unknown, policy: ScopePolicy, target = 'scope selector'): ResolvedScopeSelector {
  if (!isObject(selector)) throw new MemoryValidationError({ target, issues: [{ path: 'scope', message: 'must be an object' }] });
  const issues: MemoryValidationIssue[] = [];
  for (const key of Object.keys(selector)) if (!model.fields.includes(key)) issues.push({ path: `scope.${key}`, message: 'is not a scope field' });
  const range: Record<string, readonly string[] | undefined> = {};
  let combinations = 1;
  let anyOnBoundary: string | undefined;
  for (const field of model.fields) {
    const entry = selector[field];
    const path = `scope.${field}`;
    if (entry === undefined) {
      issues.push({ path, message: 'is required: give a value, { in: [...] } or ANY' });
    } else if (typeof entry === 'string') {
      const problem = model.checkValue(field, entry);
      if (problem === undefined) range[field] = [entry];
      else issues.push({ path, message: problem });
    } else if (isObject(entry) && entry.any === true && Object.keys(entry).length === 1) {
      if (model.boundaryFields.includes(field)) anyOnBoundary ??= field;
    } else if (isObject(entry) && Array.isArray(entry.in) && Object.keys(entry).length === 1) {
      const values = [...new Set(entry.in as unknown[])];
      if (values.length === 0) issues.push({ path: `${path}.in`, message: 'must list at least one value' });
      values.forEach((value, index) => {
        const problem = model.checkValue(field, value);
        if (problem !== undefined) issues.push({ path: `${path}.in.${index}`, message: problem });
      });
      range[field] = values as string[];
      combinations *= Math.max(values.length, 1);
    } else {
      issues.push({ path, message: 'must be a string, { in: [...] } or ANY' });
    }
  }
  if (issues.length > 0) throw new MemoryValidationError({ target, issues });
  if (anyOnBoundary !== undefined) {
    throw new ScopePolicyError({
      rule: 'scope.boundary_any',
      field: anyOnBoundary,
      message: `Scope field "${anyOnBoundary}" is a boundary field: it must be an exact value or an IN list, never ANY.`,
    });
  }
  if (combinations > policy.maxScopeCombinations) {
    throw new ScopePolicyError({
      rule: 'scope.combination_cap',
      field: 'scope',
      message: `The selector names ${combinations} scope combinations; the policy allows at most ${policy.maxScopeCombinations}.`,
    });
  }
  return { range, combinations };
}

/** The selector that names exactly one full scope. */
export function exactSelector(scope: Readonly<Record<string, string>>): ScopeSelector {
  return { ...scope };
}
