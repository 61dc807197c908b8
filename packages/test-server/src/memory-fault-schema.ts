import type { MemoryFault } from '@memplane/core';
import { z } from 'zod';

/** The faults `inject` accepts, checked at runtime because tests pass them from untyped fixtures too. */
export const memoryFaultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('rate_limited'), retryAfterSeconds: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('server_error'), status: z.number().int().min(500).max(599) }),
  z.strictObject({ kind: z.literal('timeout') }),
  z.strictObject({ kind: z.literal('malformed_body') }),
  z.strictObject({ kind: z.literal('extraction_failure') }),
]) satisfies z.ZodType<MemoryFault>;
