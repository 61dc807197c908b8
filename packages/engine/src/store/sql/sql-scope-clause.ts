import { MemoryScopeViolationError } from '@memplane/core';
import type { ItemFilter } from '../engine-store';
import type { ScopeRange, ScopeValues } from '../engine-store-rows';
import { placeholders } from './sql-connection';
import type { SqlDialect } from './sql-dialect';
import { quoteIdentifier, scopeColumn } from './sql-dialect';

/** A WHERE fragment and its parameters, in order. */
export interface SqlFragment {
  readonly sql: string;
  readonly params: unknown[];
}

/**
 * `scope_a = ? AND scope_b = ?` for a full scope. A scope that lacks a field, or names one the
 * schema does not have, is refused before any SQL runs: a store never reads or writes a row
 * with a partial scope.
 */
export function exactScope(fields: readonly string[], scope: ScopeValues, alias = '', column: (name: string) => string = (name) => name): SqlFragment {
  const extra = Object.keys(scope).filter((field) => !fields.includes(field));
  if (extra.length > 0) throw new MemoryScopeViolationError({ message: `The scope names fields the scope schema does not have: ${extra.join(', ')}.` });
  const params = fields.map((field) => {
    const value = scope[field];
    if (typeof value !== 'string') throw new MemoryScopeViolationError({ message: `The scope lacks "${field}"; writes and single-scope reads need every scope field.` });
    return value;
  });
  return { sql: fields.map((field) => `${column(`${alias}${scopeColumn(field)}`)} = ?`).join(' AND '), params };
}

/**
 * `scope_a IN (?, ?) AND ...` for a range; a field absent from the range is ANY and adds nothing.
 * The engine has already applied the cross-scope policy; an empty value list matches no row.
 */
export function scopeRange(fields: readonly string[], range: ScopeRange, alias = '', column: (name: string) => string = (name) => name): SqlFragment {
  const extra = Object.keys(range).filter((field) => !fields.includes(field) && range[field] !== undefined);
  if (extra.length > 0) throw new MemoryScopeViolationError({ message: `The scope range names fields the scope schema does not have: ${extra.join(', ')}.` });
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const field of fields) {
    const values = range[field];
    if (values === undefined) continue;
    if (values.length === 0) return { sql: '1 = 0', params: [] };
    parts.push(`${column(`${alias}${scopeColumn(field)}`)} IN (${placeholders(values.length)})`);
    params.push(...values);
  }
  return { sql: parts.length === 0 ? '1 = 1' : parts.join(' AND '), params };
}

/** The scope values of a row, read from its scope columns. */
export function readScope(fields: readonly string[], row: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field, String(row[`scope_${field}`])]));
}

/** The quoted scope column list, for INSERT statements. */
export function scopeColumnList(fields: readonly string[]): string[] {
  return fields.map(scopeColumn);
}

/** The filter of item listings and searches. */
export function itemFilterClause(dialect: SqlDialect, filter: ItemFilter, alias = ''): SqlFragment {
  const parts: string[] = [];
  const params: unknown[] = [];
  const column = (name: string) => `${alias}${quoteIdentifier(name)}`;
  if (filter.statuses !== undefined) {
    if (filter.statuses.length === 0) return { sql: '1 = 0', params: [] };
    parts.push(`${column('status')} IN (${placeholders(filter.statuses.length)})`);
    params.push(...filter.statuses);
  }
  if (filter.kinds !== undefined) {
    if (filter.kinds.length === 0) return { sql: '1 = 0', params: [] };
    parts.push(`${column('kind')} IN (${placeholders(filter.kinds.length)})`);
    params.push(...filter.kinds);
  }
  if (filter.categoryKey !== undefined) {
    parts.push(dialect.jsonArrayHas(column('category_keys')));
    params.push(filter.categoryKey);
  }
  if (filter.excludeMerged !== false) parts.push(`${column('merged_into')} IS NULL`);
  if (filter.notExpiredAt !== undefined) {
    parts.push(`(${column('expires_at')} IS NULL OR ${column('expires_at')} > ?)`);
    params.push(filter.notExpiredAt);
  }
  for (const [key, value] of Object.entries(filter.metadataEquals ?? {})) {
    parts.push(dialect.jsonKeyEquals(column('metadata')));
    params.push(key, JSON.stringify(value));
  }
  return { sql: parts.length === 0 ? '1 = 1' : parts.join(' AND '), params };
}

/** Joins fragments with AND. */
export function allOf(...fragments: SqlFragment[]): SqlFragment {
  return { sql: fragments.map((fragment) => `(${fragment.sql})`).join(' AND '), params: fragments.flatMap((fragment) => fragment.params) };
}
