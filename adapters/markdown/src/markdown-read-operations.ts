import { performance } from 'node:perf_hooks';
import {
  normalizeScope,
  scopeMatches,
  type MemoryAdapter,
  type MemoryContextBundle,
  type MemoryExplanationStep,
  type MemoryListPage,
  type MemorySnippet,
  type MemoryUsage,
} from '@memplane/core';
import { queryWords, tokenize } from '@memplane/rules';
import { localUsage, takeWarnings, type MarkdownContext } from './markdown-context';
import { listSections, searchLexical } from './markdown-search';
import type { MemoryRecordSection } from './markdown-section';
import { searchableText } from './markdown-record-text-index';
import { markdownAdapterKey, toSnippet } from './markdown-snippet';
import { buildProfile } from './markdown-profile';

type ReadOperations = Pick<MemoryAdapter, 'query' | 'list' | 'get' | 'profile' | 'explain'>;

/** Creates the read operations of the adapter. */
export function createReadOperations(context: MarkdownContext): ReadOperations {
  const { repository, settings } = context;
  const database = repository.database;

  return {
    async query(request): Promise<MemoryContextBundle> {
      const scope = normalizeScope(request.scope);
      const topK = request.topK ?? 10;
      const usage: MemoryUsage[] = [];
      let hits;
      if (context.vectors !== undefined) {
        const fused = await context.vectors.hybridSearch(scope, request.query, {
          limit: topK,
          now: settings.now(),
          weights: settings.lexicalWeights,
          ...(request.metadataFilter === undefined ? {} : { metadataFilter: request.metadataFilter }),
        });
        usage.push(...fused.usage);
        hits = fused.hits;
      }
      const started = performance.now();
      if (hits === undefined) {
        hits = searchLexical(database, scope, request.query, {
          limit: topK,
          now: settings.now(),
          weights: settings.lexicalWeights,
          ...(request.metadataFilter === undefined ? {} : { metadataFilter: request.metadataFilter }),
        }).map((hit, index) => ({ section: hit.section, score: hit.score, lexicalScore: hit.score, lexicalRank: index + 1 }));
      }
      const words = queryWords(request.query);
      const snippets = hits.map((hit) => {
        context.traces.remember(hit.section.id, {
          finalScore: hit.score,
          ...('lexicalScore' in hit && hit.lexicalScore !== undefined ? { lexicalScore: hit.lexicalScore, lexicalRank: hit.lexicalRank } : {}),
          ...('vectorScore' in hit && hit.vectorScore !== undefined ? { vectorScore: hit.vectorScore, vectorRank: hit.vectorRank } : {}),
          queryWords: words,
        });
        return toSnippet(hit.section, hit.score);
      });
      usage.unshift(localUsage(markdownAdapterKey, performance.now() - started, { engine: 'sqlite-fts5' }));
      return { snippets, usage, warnings: takeWarnings(context) };
    },

    async list(request): Promise<MemoryListPage> {
      const started = performance.now();
      const scope = normalizeScope(request.scope);
      const binding = { scope, listing: 'records', filter: request.metadataFilter ?? null };
      const afterId = request.cursor === undefined ? undefined : (context.codec.decode(request.cursor, binding) as string);
      const page = listSections(database, scope, {
        limit: request.limit ?? 50,
        ...(typeof afterId === 'string' ? { afterId } : {}),
        ...(request.metadataFilter === undefined ? {} : { metadataFilter: request.metadataFilter }),
      });
      const last = page.sections.at(-1);
      return {
        items: page.sections.map((section) => toSnippet(section)),
        ...(page.hasMore && last !== undefined ? { nextCursor: context.codec.encode(last.id, binding) } : {}),
        usage: [localUsage(markdownAdapterKey, performance.now() - started)],
        warnings: takeWarnings(context),
      };
    },

    async get(handle, scope): Promise<MemorySnippet | null> {
      const found = repository.index.record(handle.providerRecordId);
      if (found === undefined || !scopeMatches(found.section.scope, scope)) return null;
      if (found.section.status === 'rejected') return null;
      return toSnippet(found.section);
    },

    async profile(scope) {
      const started = performance.now();
      const sections: MemoryRecordSection[] = [];
      for (let page = listSections(database, normalizeScope(scope), { limit: 200 }); ; ) {
        sections.push(...page.sections);
        const last = page.sections.at(-1);
        if (!page.hasMore || last === undefined || sections.length >= 2000) break;
        page = listSections(database, normalizeScope(scope), { limit: 200, afterId: last.id });
      }
      const profile = buildProfile(sections.filter((section) => section.status === 'approved'), settings.now());
      return {
        summary: profile.summary,
        items: profile.items.map((section) => toSnippet(section)),
        usage: [localUsage(markdownAdapterKey, performance.now() - started)],
        warnings: takeWarnings(context),
      };
    },

    async explain(result, scope) {
      const started = performance.now();
      const steps: MemoryExplanationStep[] = [];
      for (const snippet of result.snippets) {
        const found = repository.index.record(snippet.handle.providerRecordId);
        if (snippet.handle.providerKey !== markdownAdapterKey || found === undefined || !scopeMatches(found.section.scope, scope)) continue;
        const trace = context.traces.recall(found.section.id);
        const handle = snippet.handle;
        if (trace?.lexicalScore !== undefined) {
          const tokens = new Set(tokenize(searchableText(found.section)));
          const matched = trace.queryWords.filter((entry) => tokens.has(entry.term)).map((entry) => entry.word);
          steps.push({ handle, stage: 'lexical', score: trace.lexicalScore, details: `BM25 rank ${trace.lexicalRank}; matched terms: ${matched.join(', ') || '(neighbour context or metadata only)'}` });
        }
        if (trace?.vectorScore !== undefined) steps.push({ handle, stage: 'vector', score: trace.vectorScore, details: `cosine rank ${trace.vectorRank}` });
        steps.push({
          handle,
          stage: trace === undefined ? 'returned' : 'fusion',
          // The score the adapter gave (before the contract made it a share of the answer's best).
          ...(snippet.score === undefined ? {} : { score: snippet.rawScore ?? snippet.score }),
          details: trace === undefined ? 'No trace kept for this record (it was not returned by a recent query of this adapter).' : `kind ${found.section.kind}, status ${found.section.status}`,
        });
      }
      return { steps, usage: [localUsage(markdownAdapterKey, performance.now() - started)] };
    },
  };
}
