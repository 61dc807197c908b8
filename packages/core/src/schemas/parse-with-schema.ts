import type { z } from 'zod';
import { MemoryError } from '../errors/memory-error';
import { MemoryInvalidResponseError } from '../errors/memory-simple-errors';
import { MemoryValidationError, type MemoryValidationIssue } from '../errors/memory-validation-error';
import { handCheckOf } from './hand-checked-schema';
import { findUnreadablePath, unreadableMessage } from './unreadable-value';

function dotted(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  return [prefix, ...path.map(String)].filter((part) => part !== '').join('.');
}

function toIssues(error: z.ZodError, prefix: string): MemoryValidationIssue[] {
  return error.issues.map((issue) => {
    // An unknown key is reported on its parent object; name the key itself.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
    return { path: dotted(prefix, [...issue.path, ...keys]), message: issue.message };
  });
}

/** The issue of a value that threw while it was parsed, at the path that throws when read again. */
function unreadableIssue(value: unknown, prefix: string): MemoryValidationIssue {
  return { path: dotted(prefix, findUnreadablePath(value) ?? []), message: unreadableMessage };
}

/**
 * Validates input at a public boundary. Throws `MemoryValidationError` naming the dotted
 * path of the first bad field (prefixed with `pathPrefix`, such as `scope`). A value that
 * throws while it is read (a getter, a proxy trap, a revoked proxy) is refused the same way,
 * naming the field that threw where it can be found, with the thrown value as `cause`.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  target: string,
  pathPrefix = '',
): z.output<Schema> {
  let error: z.ZodError;
  let issues: MemoryValidationIssue[];
  try {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    // zod builds the error when it is first read, and its messages may look at the value again.
    error = result.error;
    issues = toIssues(error, pathPrefix);
  } catch (cause) {
    throw new MemoryValidationError({ target, issues: [unreadableIssue(value, pathPrefix)], cause });
  }
  throw new MemoryValidationError({ target, issues, cause: error });
}

/**
 * Validates a provider's result. Throws `MemoryInvalidResponseError`; a malformed result is
 * never passed on, nor one that throws while it is read (a getter, a proxy trap), which keeps
 * what it threw as `cause`. A schema made by `handCheckedSchema` is checked by hand first,
 * and a body that passes is returned as it is.
 */
export function parseProviderResult<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  description: string,
  pathPrefix = '',
): z.output<Schema> {
  let error: z.ZodError;
  let first: MemoryValidationIssue | undefined;
  try {
    if (handCheckOf(schema)?.(value) === true) return value as z.output<Schema>;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    // zod builds the error when it is first read, and its messages may look at the value again.
    error = result.error;
    [first] = toIssues(error, pathPrefix);
  } catch (cause) {
    throw unreadableResult(value, description, pathPrefix, cause);
  }
  throw new MemoryInvalidResponseError({
    message: `Malformed ${description}: ${first?.path || '(root)'}: ${first?.message ?? 'invalid'}`,
    field: first?.path,
    cause: error,
  });
}

function unreadableResult(value: unknown, description: string, pathPrefix: string, cause: unknown): MemoryInvalidResponseError {
  const { path } = unreadableIssue(value, pathPrefix);
  return new MemoryInvalidResponseError({ message: `Malformed ${description}: ${path || '(root)'}: ${unreadableMessage}`, field: path, cause });
}

/**
 * Runs `read`, a hand-written reading of a provider's result, and turns anything it throws
 * that is not a memplane error (a getter, a proxy trap) into `MemoryInvalidResponseError`
 * naming the field that throws when read again, with the thrown value as `cause`.
 */
export function readProviderResult<Value>(value: unknown, description: string, pathPrefix: string, read: () => Value): Value {
  try {
    return read();
  } catch (cause) {
    if (MemoryError.isInstance(cause)) throw cause;
    throw unreadableResult(value, description, pathPrefix, cause);
  }
}
