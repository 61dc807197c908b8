import type { z } from 'zod';

/** Wrappers that keep the shape of what they wrap: paths reach through them. */
export const wrapperTypes: ReadonlySet<string> = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

/** A schema's definition: its kind, and what it wraps when it is a wrapper. */
export function defOf(schema: z.ZodType): { type: string; innerType?: z.ZodType } {
  return (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
}

/** Whether a field of this schema may be left out (optional, or with a default). */
export function isOptionalInput(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin !== undefined;
}

/** Whether a value is a zod schema (of any copy of zod 4). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function' &&
    typeof (value as { _zod?: { def?: { type?: unknown } } })._zod?.def?.type === 'string'
  );
}

/** The schema of the field a dotted path names, through wrappers and objects, or undefined. */
export function fieldAt(schema: z.ZodType, path: string): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const segment of path.split('.')) {
    while (current !== undefined && wrapperTypes.has(defOf(current).type)) current = defOf(current).innerType;
    if (current === undefined || defOf(current).type !== 'object') return undefined;
    const shape: Record<string, z.ZodType> = (current as z.ZodObject).shape;
    current = Object.hasOwn(shape, segment) ? shape[segment] : undefined;
  }
  return current;
}
