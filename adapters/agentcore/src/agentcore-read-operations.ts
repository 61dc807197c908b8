import { ListMemoryRecordsCommand, RetrieveMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import {
  MemoryInvalidResponseError,
  type CursorBinding,
  type MemoryContextBundle,
  type MemoryListPage,
  type MemoryListRequest,
  type MemoryQueryRequest,
  type MemorySnippet,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreMaximumPageSize, agentCoreRecordPageSchema } from './agentcore-api-schemas';
import { decodeNextToken, encodeNextToken } from './agentcore-cursor';
import { matchesMetadataFilter, readRecord, type RequestedScope } from './agentcore-record-mapping';
import { encodeScope, toNamespace, toScopeFilters } from './agentcore-scope-mapping';

/**
 * The most AgentCore calls one `list` page or one `query` makes: list pages while a metadata
 * filter drops everything, retrieve pages until `topK` records are in.
 */
export const maximumProviderCallsPerPage = 10;

function requestedScopeOf(request: { scope: MemoryQueryRequest['scope'] }): RequestedScope {
  return { scope: request.scope, encoded: encodeScope(request.scope) };
}

function withFilters<Input extends object>(input: Input, requested: RequestedScope) {
  const metadataFilters = toScopeFilters(requested.encoded);
  return metadataFilters.length === 0 ? input : { ...input, metadataFilters };
}

/**
 * `query`: `RetrieveMemoryRecords` under the scope's namespace, with the scope's metadata
 * fields as `EQUALS_TO` filters (at most 5, on declared indexed keys). AgentCore returns at
 * most `maxResults` of the `topK` records per call (20 when `maxResults` is left out), so the
 * adapter sends `maxResults` equal to `topK` and follows `nextToken` until it has `topK`
 * records or AgentCore has no more. Every record is checked against the scope again. A caller
 * `metadataFilter` is applied after retrieval (AgentCore cannot filter inside the packed
 * provenance), so the adapter then asks AgentCore for its maximum of 100 and keeps `topK`.
 */
export async function queryAgentCoreRecords(context: AgentCoreAdapterContext, request: MemoryQueryRequest): Promise<MemoryContextBundle> {
  const warnings: MemoryWarning[] = [];
  if (request.intent !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'intent', details: 'AgentCore ranks every retrieval the same way.' });
  }
  const requested = requestedScopeOf(request);
  const topK = request.topK ?? 10;
  const providerTopK = request.metadataFilter === undefined ? topK : agentCoreMaximumPageSize;
  const namespace = toNamespace(requested.encoded);
  const searchCriteria = withFilters({ searchQuery: request.query, topK: providerTopK }, requested);
  const snippets: MemorySnippet[] = [];
  const usage: MemoryUsage[] = [];
  const seen = new Set<string>();
  let nextToken: string | undefined;
  for (let call = 0; call < maximumProviderCallsPerPage; call += 1) {
    const token = nextToken;
    const { value, usage: callUsage } = await context.call({ operation: 'RetrieveMemoryRecords' }, agentCoreRecordPageSchema, (abortSignal) =>
      context.client.send(
        new RetrieveMemoryRecordsCommand({
          memoryId: context.memoryId,
          namespace,
          searchCriteria,
          maxResults: providerTopK,
          ...(token === undefined ? {} : { nextToken: token }),
        }),
        { abortSignal },
      ),
    );
    usage.push(callUsage);
    for (const record of value.memoryRecordSummaries) {
      // A record a later page repeats (the ranking moved between calls) is returned once.
      if (seen.has(record.memoryRecordId)) continue;
      seen.add(record.memoryRecordId);
      const snippet = readRecord(record, requested, warnings);
      if (snippet === undefined || !matchesMetadataFilter(snippet, request.metadataFilter)) continue;
      snippets.push(snippet);
      if (snippets.length === topK) break;
    }
    nextToken = value.nextToken;
    if (snippets.length === topK || nextToken === undefined || seen.size >= providerTopK) break;
  }
  return { snippets, usage, warnings };
}

/**
 * The AgentCore page size for a `list` limit: at most 100, and a divisor-like share of the
 * limit, so whole provider pages fill the page without splitting one (limit 150 reads pages
 * of 75). Never splitting a provider page keeps cursors plain AgentCore tokens: no gaps or
 * duplicates, even when records change between pages.
 */
export function providerPageSize(limit: number): number {
  return Math.floor(limit / Math.ceil(limit / agentCoreMaximumPageSize));
}

/**
 * `list`: `ListMemoryRecords` under the scope's namespace with the scope's metadata filters.
 * The AgentCore `nextToken` travels inside a signed cursor bound to the scope and the
 * metadata filter. While the caller's `metadataFilter` drops every record of a provider page,
 * the adapter reads the next one, up to 10 calls; a page may therefore hold fewer than
 * `limit` items and still have a `nextCursor`.
 */
export async function listAgentCoreRecords(context: AgentCoreAdapterContext, request: MemoryListRequest): Promise<MemoryListPage> {
  const binding: CursorBinding = { scope: request.scope, listing: 'records', filter: request.metadataFilter ?? null };
  let nextToken = request.cursor === undefined ? undefined : decodeNextToken(context.cursors, request.cursor, binding);
  const limit = request.limit ?? 50;
  const pageSize = providerPageSize(limit);
  const requested = requestedScopeOf(request);
  const namespace = toNamespace(requested.encoded);
  const items: MemorySnippet[] = [];
  const usage: MemoryUsage[] = [];
  const warnings: MemoryWarning[] = [];
  for (let call = 0; call < maximumProviderCallsPerPage; call += 1) {
    const token = nextToken;
    const { value, usage: callUsage } = await context.call({ operation: 'ListMemoryRecords' }, agentCoreRecordPageSchema, (abortSignal) =>
      context.client.send(
        new ListMemoryRecordsCommand(
          withFilters({ memoryId: context.memoryId, namespace, maxResults: pageSize, ...(token === undefined ? {} : { nextToken: token }) }, requested),
        ),
        { abortSignal },
      ),
    );
    usage.push(callUsage);
    if (value.memoryRecordSummaries.length > pageSize) {
      throw new MemoryInvalidResponseError({
        message: `AgentCore ListMemoryRecords returned ${value.memoryRecordSummaries.length} records for maxResults ${pageSize}.`,
        field: 'memoryRecordSummaries',
      });
    }
    for (const record of value.memoryRecordSummaries) {
      const snippet = readRecord(record, requested, warnings);
      if (snippet !== undefined && matchesMetadataFilter(snippet, request.metadataFilter)) items.push(snippet);
    }
    nextToken = value.nextToken;
    if (nextToken === undefined || items.length + pageSize > limit) break;
  }
  const page: MemoryListPage = { items, usage, warnings };
  if (nextToken !== undefined) page.nextCursor = encodeNextToken(context.cursors, nextToken, binding);
  return page;
}
