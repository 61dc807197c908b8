import type { z } from 'zod';
import { MemoryInvalidResponseError } from '../errors/memory-simple-errors';
import { MemoryValidationError, type MemoryValidationIssue } from '../errors/memory-validation-error';
import { handCheckOf } from './hand-checked-schema';

function toIssues(error: z.ZodError, prefix: string): MemoryValidationIssue[] {
  return error.issues.map((issue) => {
    // An unknown key is reported on its parent object; name the key itself.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
    return {
      path: [prefix, ...issue.path.map(String), ...keys].filter((part) => part !== '').join('.'),
      message: issue.message,
    };
  });
}

/**
 * Validates input at a public boundary. Throws `MemoryValidationError` naming the dotted
 * path of the first bad field (prefixed with `pathPrefix`, such as `scope`).
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  target: string,
  pathPrefix = '',
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new MemoryValidationError({ target, issues: toIssues(result.error, pathPrefix), cause: result.error });
}

/**
 * Validates a provider's result. Throws `MemoryInvalidResponseError`; a malformed result is
 * never passed on. A schema made by `handCheckedSchema` is checked by hand first, and a
 * body that passes is returned as it is.
 */
export function parseProviderResult<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  description: string,
  pathPrefix = '',
): z.output<Schema> {
  if (handCheckOf(schema)?.(value) === true) return value as z.output<Schema>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [first] = toIssues(result.error, pathPrefix);
  throw new MemoryInvalidResponseError({
    message: `Malformed ${description}: ${first?.path || '(root)'}: ${first?.message ?? 'invalid'}`,
    field: first?.path,
    cause: result.error,
  });
}
