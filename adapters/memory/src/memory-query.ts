import type {
  MemoryContextBundle,
  MemoryExplanation,
  MemoryExplanationStep,
  MemoryQueryRequest,
  MemoryScope,
  MemoryUsage,
} from '@memplane/core';
import { distinctTerms, rankByBm25 } from '@memplane/rules';
import { matchesMetadataFilter } from './memory-metadata-filter';
import type { WithUsageDetails } from './memory-operation-runner';
import type { MemoryAdapterContext } from './memory-settings';
import { handleOf, memoryAdapterKey, toSnippet } from './memory-snippet';

/** Snippets a query returns when the request sets no `topK`. */
export const defaultTopK = 10;

/**
 * `query`: BM25 over the text and summary of the records visible in the scope that pass the
 * metadata filter (corpus statistics come from those records only, so other scopes never
 * influence a score). Only records scoring above 0 come back, best first, older first among
 * equal scores. `intent` is accepted and does not change the ranking. The analysed query
 * terms are reported in the usage details (`details.queryTerms`), which is what `explain` reads.
 */
export function query(context: MemoryAdapterContext, request: MemoryQueryRequest): WithUsageDetails<MemoryContextBundle> {
  const queryTerms = distinctTerms(request.query);
  const candidates = context.state
    .visibleRecords(request.scope)
    .filter((record) => matchesMetadataFilter(record.content.metadata, request.metadataFilter));
  const matches = rankByBm25(
    queryTerms,
    candidates.map((record) => ({ payload: record, terms: record.content.terms })),
  );
  return {
    snippets: matches.slice(0, request.topK ?? defaultTopK).map((match) => toSnippet(match.payload, match.score)),
    usageDetails: { ranking: 'bm25', queryTerms },
  };
}

/** The query terms `query` reported in its usage, if the result still carries them. */
function reportedQueryTerms(usage: MemoryUsage[] | undefined): string[] | undefined {
  for (const entry of usage ?? []) {
    const terms = entry.details?.queryTerms;
    if (entry.provider === memoryAdapterKey && Array.isArray(terms) && terms.every((term) => typeof term === 'string')) {
      return terms as string[];
    }
  }
  return undefined;
}

/**
 * `explain`: one `lexical` step per snippet of the result that is still visible in the scope,
 * with the BM25 score the query gave it and the query terms its current text and summary contain.
 * Snippets of other adapters, and records since forgotten or outside the scope, get no step.
 */
export function explain(context: MemoryAdapterContext, result: MemoryContextBundle, scope: MemoryScope): MemoryExplanation {
  const queryTerms = reportedQueryTerms(result.usage);
  const steps = result.snippets.flatMap((snippet): MemoryExplanationStep[] => {
    if (snippet.handle.providerKey !== memoryAdapterKey) return [];
    const record = context.state.findRecord(snippet.handle.providerRecordId, scope);
    if (record === undefined) return [];
    const recordTerms = new Set(record.content.terms);
    const matched = queryTerms?.filter((term) => recordTerms.has(term));
    const details =
      matched === undefined
        ? 'matched: unknown (the result carries no query terms from the memory adapter)'
        : `matched: ${matched.length === 0 ? 'none' : matched.join(', ')}`;
    // The BM25 score the query gave (the snippet's raw score, before the contract made it a share of the best).
    return [{ handle: handleOf(record), stage: 'lexical', ...(snippet.score === undefined ? {} : { score: snippet.rawScore ?? snippet.score }), details }];
  });
  return { steps };
}
