import { z } from 'zod';
import { findUnreadablePath, unreadableMessage } from './unreadable-value';

/** The hand-written checks of schemas made by {@link handCheckedSchema}, looked up by `parseProviderResult`. */
const handChecks = new WeakMap<z.ZodType, (value: unknown) => boolean>();

/**
 * A provider response schema for bodies parsed on every call (search answers, list pages).
 * A valid body passes a hand-written check and goes through unchanged, with no zod machinery
 * at all: `parseProviderResult` runs the check directly. Any other body goes through
 * `detailed`, whose issues name the bad field (`results.3.memory`). Used as a plain zod
 * schema, it behaves the same way.
 *
 * `isValid` must accept exactly what `detailed` accepts, and `detailed` must not transform
 * (no defaults, no stripped keys that matter): keep a test that holds the two in agreement
 * on valid and broken bodies. A body that throws while it is read (a getter, a proxy trap) fails
 * with an issue at the field that threw, keeping what was thrown as the issue's `params.cause`.
 */
export function handCheckedSchema<Detailed extends z.ZodType>(
  isValid: (value: unknown) => boolean,
  detailed: Detailed,
  description = 'is not a valid response',
): z.ZodType<z.output<Detailed>> {
  const schema = z.unknown().superRefine((value, context) => {
    let parsed: z.ZodSafeParseResult<unknown>;
    try {
      if (isValid(value)) return;
      parsed = detailed.safeParse(value);
    } catch (cause) {
      context.addIssue({ code: 'custom', message: unreadableMessage, path: findUnreadablePath(value) ?? [], params: { cause } });
      return;
    }
    for (const issue of parsed.error?.issues ?? [{ code: 'custom' as const, message: description, path: [] }]) {
      context.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
    }
  }) as unknown as z.ZodType<z.output<Detailed>>;
  handChecks.set(schema, isValid);
  return schema;
}

/** The hand-written check of a schema made by {@link handCheckedSchema}, if it is one. */
export function handCheckOf(schema: z.ZodType): ((value: unknown) => boolean) | undefined {
  return handChecks.get(schema);
}
