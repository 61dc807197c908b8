import type { TestServer, TestServerSettings } from '@memplane/test-server';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { afterEach } from 'vitest';
import { z } from 'zod';
import type { ExampleUsage } from './example-api-schemas';
import { createExampleFakeStore, tokenize, type ExampleFakeStore } from './example-fake-store';

/**
 * A stateful fake of the Example API for tests (not part of the build). It checks the API
 * key, validates bodies like the real API, and answers from an in-memory store. Faults
 * injected through `testServer.faults` answer before it, at every URL of the API.
 */
export interface ExampleFakeApi {
  /** The base URL the fake answers at. */
  readonly baseURL: string;
  /** The only API key it accepts. */
  readonly apiKey: string;
  /** The records it holds. */
  readonly store: ExampleFakeStore;
  /** The msw handlers of the API. */
  readonly handlers: RequestHandler[];
}

const textLimit = 100_000;
const labelsSchema = z.record(z.string(), z.string());
const jsonObjectSchema = z.record(z.string(), z.unknown());
const filtersSchema = z.strictObject({ labels: labelsSchema, metadata: jsonObjectSchema.optional() });
const recordInputSchema = z.strictObject({
  text: z.string(),
  summary: z.string().optional(),
  labels: labelsSchema,
  metadata: jsonObjectSchema.optional(),
  source: jsonObjectSchema.optional(),
});
const createBodySchema = z.strictObject({ tenant: z.string().min(1), records: z.array(z.unknown()).min(1).max(100) });
const searchBodySchema = z.strictObject({
  tenant: z.string().min(1),
  query: z.string().min(1),
  top_k: z.number().int().min(1).max(100),
  filters: filtersSchema,
});
const patchBodySchema = z.strictObject({
  text: z.string().min(1).max(textLimit).optional(),
  summary: z.string().optional(),
  metadata: jsonObjectSchema.optional(),
  reason: z.string().optional(),
});
const pageTokenSchema = z.string().regex(/^[A-Za-z0-9_-]+$/);

function failure(status: number, code: string, message: string): Response {
  return HttpResponse.json({ error: { code, message } }, { status });
}

function usageOf(text: string): ExampleUsage {
  return { latency_ms: 4, embedding_tokens: tokenize(text).length, embedding_model: 'example-embed-1' };
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return (await request.json()) as unknown;
  } catch {
    return undefined;
  }
}

function readFilters(parameter: string | null): z.output<typeof filtersSchema> | undefined {
  try {
    const parsed = filtersSchema.safeParse(JSON.parse(parameter ?? '{"labels":{}}'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the fake Example API. */
export function createExampleFakeApi(settings: { baseURL?: string; apiKey?: string } = {}): ExampleFakeApi {
  const baseURL = settings.baseURL ?? 'https://api.example.test';
  const apiKey = settings.apiKey ?? 'example-test-key';
  const store = createExampleFakeStore();
  const authorized = (request: Request) => request.headers.get('x-api-key') === apiKey;
  const unauthorized = () => failure(401, 'unauthorized', 'Missing or invalid API key.');

  const handlers: RequestHandler[] = [
    http.post(`${baseURL}/v1/records`, async ({ request }) => {
      if (!authorized(request)) return unauthorized();
      const body = createBodySchema.safeParse(await readJson(request));
      if (!body.success) return failure(400, 'invalid_request', body.error.issues[0]?.message ?? 'invalid body');
      const results = body.data.records.map((candidate) => {
        const input = recordInputSchema.safeParse(candidate);
        if (!input.success)
          return {
            status: 'rejected',
            error: { code: 'invalid_record', message: input.error.issues[0]?.message ?? 'invalid record' },
          };
        if (input.data.text.trim() === '' || input.data.text.length > textLimit) {
          return {
            status: 'rejected',
            error: { code: 'invalid_record', message: `text must have 1 to ${textLimit} characters` },
          };
        }
        return { status: 'created', record: store.create(body.data.tenant, input.data) };
      });
      const written = body.data.records.map((candidate) => (candidate as { text?: unknown }).text).join(' ');
      return HttpResponse.json({ results, usage: usageOf(written) });
    }),

    http.get(`${baseURL}/v1/records`, ({ request }) => {
      if (!authorized(request)) return unauthorized();
      const parameters = new URL(request.url).searchParams;
      const tenant = parameters.get('tenant');
      const filters = readFilters(parameters.get('filters'));
      const pageSize = Number(parameters.get('page_size') ?? '50');
      const pageToken = parameters.get('page_token');
      if (tenant === null || tenant === '') return failure(400, 'invalid_request', 'tenant is required');
      if (filters === undefined) return failure(400, 'invalid_request', 'filters must be JSON {labels, metadata?}');
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200)
        return failure(400, 'invalid_request', 'page_size must be 1 to 200');
      if (pageToken !== null && !pageTokenSchema.safeParse(pageToken).success)
        return failure(400, 'invalid_page_token', 'unreadable page_token');
      const after = pageToken === null ? undefined : Buffer.from(pageToken, 'base64url').toString('utf8');
      const page = store.page(tenant, filters, pageSize, after);
      const nextPageToken = page.last === undefined ? null : Buffer.from(page.last).toString('base64url');
      return HttpResponse.json({ records: page.records, next_page_token: nextPageToken, usage: { latency_ms: 2 } });
    }),

    http.get(`${baseURL}/v1/records/:id`, ({ request, params }) => {
      if (!authorized(request)) return unauthorized();
      const record = store.find(new URL(request.url).searchParams.get('tenant') ?? '', String(params.id));
      if (record === undefined) return failure(404, 'not_found', 'No such record.');
      return HttpResponse.json({ record, usage: { latency_ms: 1 } });
    }),

    http.delete(`${baseURL}/v1/records/:id`, ({ request, params }) => {
      if (!authorized(request)) return unauthorized();
      const deleted = store.delete(new URL(request.url).searchParams.get('tenant') ?? '', String(params.id));
      if (!deleted) return failure(404, 'not_found', 'No such record.');
      return HttpResponse.json({ deleted: true, usage: { latency_ms: 1 } });
    }),

    http.patch(`${baseURL}/v1/records/:id`, async ({ request, params }) => {
      if (!authorized(request)) return unauthorized();
      const body = patchBodySchema.safeParse(await readJson(request));
      if (!body.success) return failure(400, 'invalid_request', body.error.issues[0]?.message ?? 'invalid body');
      const record = store.update(new URL(request.url).searchParams.get('tenant') ?? '', String(params.id), body.data);
      if (record === undefined) return failure(404, 'not_found', 'No such record.');
      return HttpResponse.json({ record, usage: usageOf(body.data.text ?? '') });
    }),

    http.post(`${baseURL}/v1/search`, async ({ request }) => {
      if (!authorized(request)) return unauthorized();
      const body = searchBodySchema.safeParse(await readJson(request));
      if (!body.success) return failure(400, 'invalid_request', body.error.issues[0]?.message ?? 'invalid body');
      const { tenant, filters, query, top_k: topK } = body.data;
      return HttpResponse.json({ results: store.search(tenant, filters, query, topK), usage: usageOf(query) });
    }),
  ];

  return { baseURL, apiKey, store, handlers };
}

/** Faults answer at every URL of the API, and injected 429 and 5xx answers carry the API's own error body, like the real thing. */
export function exampleFaultSettings(api: ExampleFakeApi): TestServerSettings {
  return {
    faultUrls: [`${api.baseURL}/*`],
    faults: {
      decorateError: (response, fault) =>
        new Response(JSON.stringify({ error: { code: fault.kind, message: `Injected ${fault.kind} fault.` } }), {
          status: response.status,
          headers: response.headers,
        }),
    },
  };
}

/**
 * Serves the fake API for the current test file: the test server starts before the first
 * test, faults answer at every URL of the API, and calls, faults and records are cleared
 * after each test.
 */
export function setupExampleFakeServer(settings: { baseURL?: string; apiKey?: string } = {}): {
  api: ExampleFakeApi;
  testServer: TestServer;
} {
  const api = createExampleFakeApi(settings);
  const testServer = setupTestServer(api.handlers, exampleFaultSettings(api));
  afterEach(() => api.store.clear());
  return { api, testServer };
}
