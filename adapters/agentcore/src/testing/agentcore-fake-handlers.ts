import { randomUUID } from 'node:crypto';
import { http, type HttpHandler } from 'msw';
import { agentCoreEndpoint, errorResponse, jsonResponse, readBody, refuseUnauthenticated, validationError } from './agentcore-fake-responses';
import type { AgentCoreFakeStore, FakeMetadataFilter, FakeRecord } from './agentcore-fake-store';
import { eventAndJobHandlers } from './agentcore-fake-event-handlers';
import { checkMetadataFilters } from './agentcore-fake-filters';
import { checkMetadata, checkNamespaces, requestIdentifierPattern } from './agentcore-fake-validation';

/**
 * msw handlers of the AgentCore data plane REST API over a fake store (test-only). Paths,
 * status codes and bodies follow the API reference (restJson1; timestamps in epoch seconds);
 * errors carry the `x-amzn-errortype` header the SDK reads. Every request must be SigV4
 * signed by the SDK, as AWS requires.
 */

function summary(record: FakeRecord, score?: number): Record<string, unknown> {
  const { sequence: _sequence, ...wire } = record;
  return score === undefined ? wire : { ...wire, score };
}

function readToken(token: unknown): number | undefined {
  if (token === undefined) return 0;
  try {
    const position = JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8')) as { after?: unknown };
    return typeof position.after === 'number' ? position.after : undefined;
  } catch {
    return undefined;
  }
}

/** A page token of the fake: the position after which the next page starts. */
function writeToken(after: number): string {
  return Buffer.from(JSON.stringify({ after })).toString('base64url');
}

/** The record handlers: batch create, update and delete, list, retrieve, get and delete. */
function recordHandlers(store: AgentCoreFakeStore, base: string, rejectRecord: RejectRecord): HttpHandler[] {
  return [
    http.post(`${base}/memories/:memoryId/memoryRecords/batchCreate`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = await readBody(request);
      const inputs = body?.records;
      if (!Array.isArray(inputs) || inputs.length > 100) return validationError('records must hold 0 to 100 items.');
      const replayed = store.replay('batchCreate', body?.clientToken);
      if (replayed !== undefined) return jsonResponse(replayed, 201);
      const successfulRecords: unknown[] = [];
      const failedRecords: unknown[] = [];
      for (const input of inputs as Array<Record<string, unknown>>) {
        const requestIdentifier = String(input.requestIdentifier);
        const text = (input.content as { text?: unknown } | undefined)?.text;
        const problem =
          (requestIdentifierPattern.test(requestIdentifier) ? undefined : 'requestIdentifier does not satisfy the constraints') ??
          (typeof text === 'string' && text !== '' ? undefined : 'content.text is required') ??
          (typeof input.timestamp === 'number' ? undefined : 'timestamp is required') ??
          checkNamespaces(input.namespaces) ??
          checkMetadata(input.metadata, 'record');
        const rejection = problem === undefined ? rejectRecord(String(text)) : { errorCode: 400, errorMessage: problem };
        if (rejection !== undefined) {
          failedRecords.push({ memoryRecordId: `mem-${randomUUID()}`, status: 'FAILED', requestIdentifier, ...rejection });
          continue;
        }
        const record = store.createRecord({
          content: { text: String(text) },
          namespaces: input.namespaces as string[],
          ...(input.memoryStrategyId === undefined ? {} : { memoryStrategyId: String(input.memoryStrategyId) }),
          ...(input.metadata === undefined ? {} : { metadata: input.metadata as FakeRecord['metadata'] }),
        });
        successfulRecords.push({ memoryRecordId: record.memoryRecordId, status: 'SUCCEEDED', requestIdentifier });
      }
      const response = { successfulRecords, failedRecords };
      store.remember('batchCreate', body?.clientToken, response);
      return jsonResponse(response, 201);
    }),
    http.post(`${base}/memories/:memoryId/memoryRecords/batchUpdate`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const inputs = (await readBody(request))?.records;
      if (!Array.isArray(inputs) || inputs.length > 100) return validationError('records must hold 0 to 100 items.');
      const successfulRecords: unknown[] = [];
      const failedRecords: unknown[] = [];
      for (const input of inputs as Array<Record<string, unknown>>) {
        const memoryRecordId = String(input.memoryRecordId);
        const record = store.records.get(memoryRecordId);
        const problem = (input.namespaces === undefined ? undefined : checkNamespaces(input.namespaces)) ?? checkMetadata(input.metadata, 'record');
        if (record === undefined || problem !== undefined) {
          failedRecords.push({ memoryRecordId, status: 'FAILED', errorCode: record === undefined ? 404 : 400, errorMessage: problem ?? 'Memory record not found.' });
          continue;
        }
        const content = input.content as { text?: unknown } | undefined;
        if (typeof content?.text === 'string') record.content = { text: content.text };
        if (input.namespaces !== undefined) record.namespaces = input.namespaces as string[];
        // The adapter sends the whole map; the fake replaces it, the stricter reading of the API.
        if (input.metadata !== undefined) record.metadata = structuredClone(input.metadata) as FakeRecord['metadata'];
        successfulRecords.push({ memoryRecordId, status: 'SUCCEEDED' });
      }
      return jsonResponse({ successfulRecords, failedRecords });
    }),
    http.post(`${base}/memories/:memoryId/memoryRecords/batchDelete`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const inputs = (await readBody(request))?.records;
      if (!Array.isArray(inputs) || inputs.length > 100) return validationError('records must hold 0 to 100 items.');
      const successfulRecords: unknown[] = [];
      const failedRecords: unknown[] = [];
      for (const input of inputs as Array<{ memoryRecordId?: unknown; namespace?: unknown }>) {
        const memoryRecordId = String(input.memoryRecordId);
        const record = store.records.get(memoryRecordId);
        const namespaceMismatch = typeof input.namespace === 'string' && !(record?.namespaces[0] ?? '').startsWith(input.namespace);
        if (record === undefined || namespaceMismatch) {
          failedRecords.push({ memoryRecordId, status: 'FAILED', errorCode: 404, errorMessage: 'Memory record not found.' });
          continue;
        }
        store.records.delete(memoryRecordId);
        successfulRecords.push({ memoryRecordId, status: 'SUCCEEDED' });
      }
      return jsonResponse({ successfulRecords, failedRecords });
    }),
    http.post(`${base}/memories/:memoryId/memoryRecords`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = (await readBody(request)) ?? {};
      // API_ListMemoryRecords.html: maxResults 1 to 100, "The default value is 20".
      const maxResults = body.maxResults ?? 20;
      if (typeof body.namespace !== 'string') return validationError('Either namespace or namespacePath is required.');
      if (typeof maxResults !== 'number' || maxResults < 1 || maxResults > 100) return validationError('maxResults must be between 1 and 100.');
      const after = readToken(body.nextToken);
      const filterProblem = checkMetadataFilters(store, body.metadataFilters);
      if (after === undefined || filterProblem !== undefined) return validationError(filterProblem ?? 'Invalid nextToken.');
      const { page, last } = store.page(body.namespace, (body.metadataFilters ?? []) as FakeMetadataFilter[], maxResults, after);
      const nextToken = last === undefined ? undefined : writeToken(last);
      return jsonResponse({ memoryRecordSummaries: page.map((record) => summary(record)), ...(nextToken === undefined ? {} : { nextToken }) });
    }),
    http.post(`${base}/memories/:memoryId/retrieve`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = (await readBody(request)) ?? {};
      const criteria = (body.searchCriteria ?? {}) as { searchQuery?: unknown; topK?: unknown; metadataFilters?: unknown };
      // API_SearchCriteria.html: topK 1 to 100. The service's default when it is left out is
      // not documented; the fake uses 10, the default the developer guide's examples show.
      const topK = criteria.topK ?? 10;
      // API_RetrieveMemoryRecords.html: maxResults 1 to 100, "The default value is 20": a call
      // returns at most maxResults of the topK records, and nextToken leads to the rest.
      const maxResults = body.maxResults ?? 20;
      if (typeof body.namespace !== 'string') return validationError('Either namespace or namespacePath is required.');
      if (typeof criteria.searchQuery !== 'string' || criteria.searchQuery.length < 1 || criteria.searchQuery.length > 10_000) {
        return validationError('searchQuery must hold 1 to 10000 characters.');
      }
      if (typeof topK !== 'number' || topK < 1 || topK > 100) return validationError('topK must be between 1 and 100.');
      if (typeof maxResults !== 'number' || maxResults < 1 || maxResults > 100) return validationError('maxResults must be between 1 and 100.');
      const after = readToken(body.nextToken);
      const filterProblem = checkMetadataFilters(store, criteria.metadataFilters);
      if (after === undefined || filterProblem !== undefined) return validationError(filterProblem ?? 'Invalid nextToken.');
      const results = store.search(body.namespace, (criteria.metadataFilters ?? []) as FakeMetadataFilter[], criteria.searchQuery, topK);
      const pageSize = Math.min(maxResults, store.retrievePageLimit ?? maxResults);
      const page = results.slice(after, after + pageSize);
      const nextToken = after + pageSize < results.length ? writeToken(after + pageSize) : undefined;
      return jsonResponse({
        memoryRecordSummaries: page.map(({ record, score }) => summary(record, score)),
        ...(nextToken === undefined ? {} : { nextToken }),
      });
    }),
    http.get(`${base}/memories/:memoryId/memoryRecord/:memoryRecordId`, ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const record = store.records.get(String(params.memoryRecordId));
      const namespace = new URL(request.url).searchParams.get('namespace');
      // The namespace is an IAM authorization scope: a record outside it is not visible.
      if (record === undefined || (namespace !== null && !(record.namespaces[0] ?? '').startsWith(namespace))) {
        return errorResponse(404, 'ResourceNotFoundException', 'Memory record not found.');
      }
      return jsonResponse({ memoryRecord: summary(record) });
    }),
    http.delete(`${base}/memories/:memoryId/memoryRecords/:memoryRecordId`, ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const memoryRecordId = String(params.memoryRecordId);
      const record = store.records.get(memoryRecordId);
      const namespace = new URL(request.url).searchParams.get('namespace');
      if (record === undefined || (namespace !== null && !(record.namespaces[0] ?? '').startsWith(namespace))) {
        return errorResponse(404, 'ResourceNotFoundException', 'Memory record not found.');
      }
      store.records.delete(memoryRecordId);
      return jsonResponse({ memoryRecordId });
    }),
  ];
}

/** Decides per record whether the fake rejects it inside a successful batch (a test knob). */
export type RejectRecord = (text: string) => { errorCode: number; errorMessage: string } | undefined;

/** Settings of {@link createAgentCoreFakeHandlers}. */
export interface FakeHandlerSettings {
  /** The region of the endpoint. */
  region: string;
  /** Rejects chosen records of a batch create, to test partial failures. Default: none. */
  rejectRecord?: RejectRecord;
}

/** Every handler of the fake AgentCore data plane. */
export function createAgentCoreFakeHandlers(store: AgentCoreFakeStore, settings: FakeHandlerSettings): HttpHandler[] {
  const base = agentCoreEndpoint(settings.region);
  return [
    ...recordHandlers(store, base, (text) => settings.rejectRecord?.(text)),
    ...eventAndJobHandlers(store, base),
  ];
}
