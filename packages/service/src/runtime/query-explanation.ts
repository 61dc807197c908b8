import {
  MemoryInvalidResponseError,
  memoryRecordHandleSchema,
  parseProviderResult,
  type MemoryAdapter,
  type MemoryContextBundle,
  type MemoryExplanation,
  type MemoryScope,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import { checkUsage } from './provider-results';

/** The trace of an `explain` result, without `usage` (checked apart like every result's usage). */
const explanationEnvelopeSchema = z.object({
  steps: z
    .array(
      z.object({
        handle: memoryRecordHandleSchema,
        stage: z.string().min(1).max(200),
        score: z.number().finite().optional(),
        details: z.string().max(10_000).optional(),
      }),
    )
    .max(10_000),
});

/** What {@link explainFilteredBundle} adds to a query result. */
export interface QueryExplanationOutcome {
  /** The provider's trace, reduced to the snippets the caller was given. Absent when the provider cannot explain. */
  explanation?: Omit<MemoryExplanation, 'usage'>;
  /** Usage of the explain call, to be booked with the query's. */
  usage: MemoryUsage[];
}

const keyOf = (handle: { providerKey: string; providerRecordId: string }) => `${handle.providerKey}\u0000${handle.providerRecordId}`;

/**
 * Asks the binding's adapter to explain a query result the service has already filtered, under
 * the operation's deadline (`call`). Only the filtered bundle reaches the provider, as a copy, so
 * it can neither see what was dropped nor change what the caller gets. The trace is checked like
 * every provider result, and a step about a record the caller was not given is dropped with a
 * warning: a trace of a foreign record would leak its id, stage and matched terms. Without
 * `capabilities.explain` nothing is called and an `unsupported` warning for `explain` says so.
 */
export async function explainFilteredBundle(
  adapter: MemoryAdapter,
  providerId: string,
  bundle: MemoryContextBundle,
  scope: MemoryScope,
  call: <Value>(name: string, work: () => Promise<Value>) => Promise<Value>,
  warnings: MemoryWarning[],
): Promise<QueryExplanationOutcome> {
  if (adapter.capabilities?.explain !== true) {
    warnings.push({ type: 'unsupported', feature: 'explain', details: `explain_unsupported: the ${providerId} provider does not explain its retrieval.` });
    return { usage: [] };
  }
  const answer: unknown = await call('explain', () => adapter.explain(structuredClone(bundle), structuredClone(scope)));
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw new MemoryInvalidResponseError({ message: `Malformed ${providerId} explain result: expected an object.` });
  }
  const { usage, ...rest } = answer as Record<string, unknown>;
  const { steps } = parseProviderResult(explanationEnvelopeSchema, rest, `${providerId} explain result`) as z.output<typeof explanationEnvelopeSchema>;
  const given = new Set(bundle.snippets.map((snippet) => keyOf(snippet.handle)));
  const kept = steps.filter((step) => given.has(keyOf(step.handle)));
  if (kept.length < steps.length) {
    // Fail closed, and say how many without naming the records.
    warnings.push({
      type: 'other',
      message: `The ${providerId} provider explained ${steps.length - kept.length} step(s) about records outside the returned snippets; they were dropped.`,
    });
  }
  return { explanation: { steps: kept }, usage: checkUsage(usage, providerId, warnings) };
}
