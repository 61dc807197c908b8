import { parseInput } from '@memplane/core';
import type { z } from 'zod';

/**
 * Validates a method's argument. Fields are named as the caller wrote them (`key`, `before`);
 * when the argument itself is not an object (`null`, a string), the error names the argument
 * (`input`, `request`), never an empty field.
 */
export function parseArgument<Schema extends z.ZodType>(schema: Schema, value: unknown, target: string, argument: string): z.output<Schema> {
  let isObject: boolean;
  try {
    isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    // A revoked proxy: parseInput refuses it, under the argument's name.
    isObject = false;
  }
  return parseInput(schema, value, target, isObject ? '' : argument);
}
