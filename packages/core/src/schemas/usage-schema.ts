import { z } from 'zod';
import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';
import type { MemoryWarning } from '../memory-adapter/v1/memory-adapter-v1-warning';

const counter = z.number().nonnegative().optional();

export const memoryUsageSchema = z.object({
  provider: z.string().min(1),
  biller: z.string().optional(),
  model: z.string().optional(),
  billingType: z.enum(['metered_api', 'subscription_included', 'subscription_overage', 'unknown']).optional(),
  attributionMode: z.enum(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']).optional(),
  inputTokens: counter,
  cachedInputTokens: counter,
  outputTokens: counter,
  embeddingTokens: counter,
  costCents: counter,
  latencyMs: counter,
  details: z.record(z.string(), z.unknown()).optional(),
  raw: z.unknown().optional(),
}) satisfies z.ZodType<MemoryUsage>;

export const memoryWarningSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('unsupported'), feature: z.string(), details: z.string().optional() }),
  z.object({ type: z.literal('compatibility'), feature: z.string(), details: z.string().optional() }),
  z.object({ type: z.literal('scope_violation'), providerRecordId: z.string(), details: z.string().optional() }),
  z.object({ type: z.literal('not_found'), providerRecordId: z.string(), details: z.string().optional() }),
  z.object({ type: z.literal('other'), message: z.string() }),
]) satisfies z.ZodType<MemoryWarning>;
