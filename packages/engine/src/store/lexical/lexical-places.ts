import { stableStringify } from '@memplane/core';
import type { LexicalRange, MemoryLexicalFilter } from '@memplane/rules';
import type { ScopeRange, ScopeValues } from '../engine-store-rows';

/**
 * Where an item sits in the engine's lexical index, the same on every backend. A block is a value
 * of the boundary fields (a company): its items are the corpus of a search and its rowids a range
 * of their own (`block × 2^32 + n`, n counting the block's writes). A sequence is one full scope,
 * whose items form neighbour windows in write order (`position` counting the scope's writes). The
 * narrower scope fields are filter tokens. Blocks and sequences are numbered in order of first
 * write, so the same writes give the same rowids, windows and ties on every store.
 */
export interface LexicalPlace {
  readonly rowid: number;
  readonly block: number;
  readonly sequence: number;
  readonly position: number;
}

/** Rowids per block. */
export const blockSize = 2 ** 32;

/** The rowid range of a block. */
export function rangeOfBlock(block: number): LexicalRange {
  return { block, first: block * blockSize, last: block * blockSize + blockSize - 1 };
}

/** The key of a scope's block: its boundary values, in schema order. */
export function blockKeyOf(boundaryFields: readonly string[], scope: ScopeValues): string {
  return stableStringify(boundaryFields.map((field) => scope[field] ?? null));
}

/** The key of a scope's sequence: the full scope. */
export function sequenceKeyOf(scope: ScopeValues): string {
  return stableStringify(scope);
}

/**
 * The block keys a range covers, when every boundary field is pinned (the engine's policy
 * guarantees it); undefined when one is ANY, so the caller matches every block it holds.
 */
export function blockKeysOf(boundaryFields: readonly string[], range: ScopeRange): string[] | undefined {
  let keys: Array<Array<string | null>> = [[]];
  for (const field of boundaryFields) {
    const values = range[field];
    if (values === undefined) return undefined;
    keys = keys.flatMap((key) => values.map((value) => [...key, value]));
  }
  return keys.map((key) => stableStringify(key));
}

/** Whether a block key lies in a range (for blocks found without pinned boundary fields). */
export function blockKeyInRange(boundaryFields: readonly string[], key: string, range: ScopeRange): boolean {
  const values = JSON.parse(key) as Array<string | null>;
  return boundaryFields.every((field, at) => {
    const allowed = range[field];
    return allowed === undefined || (values[at] !== null && allowed.includes(values[at] as string));
  });
}

/** The filter token of one narrower scope field's value. */
export function scopeTokenOf(field: string, value: string): string {
  return `${field}\u0000${value}`;
}

/** The filter tokens of a scope: its narrower (non-boundary) fields. */
export function scopeTokensOf(fields: readonly string[], boundaryFields: readonly string[], scope: ScopeValues): string[] {
  return fields.filter((field) => !boundaryFields.includes(field)).map((field) => scopeTokenOf(field, scope[field] as string));
}

/** The filter of a range over the narrower fields: for each pinned one, any of its values; undefined when none is pinned. */
export function scopeFilterOf(fields: readonly string[], boundaryFields: readonly string[], range: ScopeRange): MemoryLexicalFilter | undefined {
  const clauses = fields.filter((field) => !boundaryFields.includes(field) && range[field] !== undefined).map((field) => (range[field] as readonly string[]).map((value) => scopeTokenOf(field, value)));
  return clauses.length === 0 ? undefined : clauses;
}
