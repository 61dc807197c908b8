import { MemoryConflictError } from '@memplane/core';
import type { SqlDialect } from './sql-dialect';
import type { SqlLexicalIndex } from './sql-lexical-index';

/** What the shared SQL session needs from its backend, fixed once the store is open. */
export interface SqlStoreContext {
  readonly dialect: SqlDialect;
  /** The scope fields in schema order (the service meta's). */
  readonly fields: readonly string[];
  /** The boundary fields (the service meta's): a value of them is a block of the lexical index. */
  readonly boundaryFields: readonly string[];
  /** The backend's lexical index. */
  readonly lexical: SqlLexicalIndex;
  /** Whether a driver error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
}

/** Runs a write and turns a unique violation into `MemoryConflictError` (retryable) with `message`. */
export async function withConflict<T>(context: SqlStoreContext, message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (context.isUniqueViolation(error)) throw new MemoryConflictError({ message, cause: error });
    throw error;
  }
}

/** Splits a list into chunks of at most `size`, so no statement exceeds a driver's parameter limit. */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size));
  return result;
}
