import { memoryScopeFields, type MemoryScope } from '@memplane/core';
import { z } from 'zod';
import { ANY, type ScopeSelector } from '../scope/scope-selector';
import type { ScopeValues } from '../store/engine-store-rows';

/**
 * The default scope model the adapter maps `MemoryScope` onto: the eight contract fields as
 * columns, `companyId` the boundary field. An unset field is stored as the empty string, which
 * no contract identifier can be, so "unset" never collides with a value.
 */
export const memoryScopeModelSchema = z.object(Object.fromEntries(memoryScopeFields.map((field) => [field, z.string().max(256)])) as Record<(typeof memoryScopeFields)[number], z.ZodString>);

/** The boundary field of the default scope model. */
export const memoryScopeBoundaryFields: readonly string[] = ['companyId'];

/** The full scope a write lands in: every contract field, unset ones empty. */
export function toScopeValues(scope: MemoryScope): ScopeValues {
  return Object.fromEntries(memoryScopeFields.map((field) => [field, scope[field] ?? '']));
}

/**
 * The selector of a read: the company exact, every set field exact, every unset field ANY. This is
 * the contract's scope match (a record is visible when it agrees on every field the request sets).
 */
export function toScopeSelector(scope: MemoryScope): ScopeSelector {
  return Object.fromEntries(memoryScopeFields.map((field) => [field, scope[field] ?? ANY]));
}

/** The contract scope of a stored full scope: empty fields left out. */
export function toMemoryScope(scope: ScopeValues): MemoryScope {
  const result: Record<string, string> = {};
  for (const field of memoryScopeFields) {
    const value = scope[field];
    if (value !== undefined && value !== '') result[field] = value;
  }
  return result as unknown as MemoryScope;
}
