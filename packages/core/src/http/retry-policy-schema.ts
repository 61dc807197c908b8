import { z } from 'zod';
import type { RetryPolicy } from './call-with-retry';

const nonNegativeInteger = z.number().int().nonnegative();

/**
 * Validates the `retry` setting every hosted adapter takes: overrides of the default
 * {@link RetryPolicy}. At most 10 retries; delays are whole milliseconds.
 */
export const retryPolicyOverridesSchema = z.strictObject({
  maxRetries: nonNegativeInteger.max(10).optional(),
  initialDelayMs: nonNegativeInteger.optional(),
  maxDelayMs: nonNegativeInteger.optional(),
  backoffFactor: z.number().min(1).optional(),
  maxRetryAfterMs: nonNegativeInteger.optional(),
}) satisfies z.ZodType<Partial<RetryPolicy>>;

/**
 * Validates the `cursorSecret` setting: a string of at least 16 characters or raw bytes,
 * the HMAC key of `createCursorCodec`.
 */
export const cursorSecretSchema = z.union([
  z.string().min(16, 'must be at least 16 characters'),
  z.instanceof(Uint8Array),
]);
