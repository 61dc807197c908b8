import { createHash } from 'node:crypto';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { compileMem0Filters, Mem0FakeFilterError } from './mem0-fake-filters';
import { detailedMemory, eventBody, listedMemory, searchedMemory, type Mem0FakePayloadEcho } from './mem0-fake-responses';
import { rankMemories } from './mem0-fake-search';
import { createMem0FakeStore, type Mem0FakeMemory, type Mem0FakeMessage, type Mem0FakeStoreSettings } from './mem0-fake-store';

/** Settings of {@link createMem0Fake}. */
export interface Mem0FakeSettings extends Mem0FakeStoreSettings {
  /** The host the fake answers at. Default `https://api.mem0.test`. */
  host?: string;
  /** The API key the fake accepts. Default `m0-test-key`. */
  apiKey?: string;
  /**
   * How much of the original request an event's `payload` echoes. mem0 documents it only
   * as "the original payload", so the adapter must work with each. Default `full`.
   */
  eventPayloadEcho?: Mem0FakePayloadEcho;
  /** Whether an `extraction_failure` fault is in force; extracting adds submitted then fail. */
  isExtractionFailureInForce?: () => boolean;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const eventsPageSize = 50;
const entityKeys = ['user_id', 'agent_id', 'app_id', 'run_id'];

function failure(status: number, body: Record<string, unknown>) {
  return HttpResponse.json(body, { status });
}

async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  const text = await request.text();
  if (text === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stateful msw fake of the mem0 platform API, following its documented semantics and
 * traps (see `../shared/research/providers.md` and the README): trailing slashes on every
 * path, `Token` auth, UUID memory ids (400 otherwise), at least one entity id on writes and
 * reads, extraction as asynchronous events, `run_id` on search but `session_id` on getAll,
 * `page_size` at most 200, and the filter grammar of `mem0-fake-filters.ts`. Test-only.
 *
 * `faultUrls` lists every endpoint but `/v1/ping/`: the SDK pings from its constructor and
 * swallows a failed ping (writing to the console), so faults act on the calls that matter.
 */
export function createMem0Fake(settings: Mem0FakeSettings = {}) {
  const host = settings.host ?? 'https://api.mem0.test';
  const apiKey = settings.apiKey ?? 'm0-test-key';
  const store = createMem0FakeStore(settings);
  const unauthorized = (request: Request) =>
    request.headers.get('authorization') === `Token ${apiKey}`
      ? undefined
      : failure(401, { detail: 'Invalid API key. You can find your API key on https://app.mem0.ai/dashboard/api-keys.' });
  const filterFailure = (error: unknown) => {
    if (error instanceof Mem0FakeFilterError) return failure(error.status, { error: error.message });
    throw error;
  };
  const findMemory = (id: string) => {
    if (!uuidPattern.test(id)) return failure(400, { error: 'memory_id should be a valid UUID' });
    return store.memories.get(id) ?? failure(404, { error: 'Memory not found!' });
  };

  const handlers: HttpHandler[] = [
    // API reference `GET /v1/ping/` (docs/openapi.json); the SDK pings from its constructor. 401 body: SDK `AuthenticationError`.
    http.get(`${host}/v1/ping/`, ({ request }) =>
      unauthorized(request) ?? HttpResponse.json({ status: 'ok', org_id: 'org_fake0001', project_id: 'proj_fake0001', user_email: 'developer@example.com' }),
    ),

    // Add Memories (docs.mem0.ai/api-reference/memory/add-memories): messages required, at least one entity id (400),
    // infer false answers `{message, results}` synchronously, infer true `{status: 'PENDING', event_id}`.
    http.post(`${host}/v3/memories/add/`, async ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const body = await readJson(request);
      const messages = body?.messages;
      if (body === undefined || !Array.isArray(messages) || messages.length === 0) return failure(400, { error: 'messages is required and must be a non-empty list' });
      if (!messages.every((message: Mem0FakeMessage) => ['user', 'assistant', 'system'].includes(message.role) && message.content !== undefined)) {
        return failure(400, { error: 'Each message needs a role (user, assistant or system) and content' });
      }
      if (!entityKeys.some((key) => typeof body[key] === 'string' && body[key] !== '')) {
        return failure(400, { error: 'At least one of user_id, agent_id, app_id or run_id is required' });
      }
      if (body.infer === false) {
        const stored = store.addVerbatim(body, messages as Mem0FakeMessage[]);
        return HttpResponse.json({ message: 'Memories added successfully', results: stored.map((memory) => ({ id: memory.id, data: { memory: memory.memory }, event: 'ADD' })) });
      }
      const event = store.queue(body, settings.isExtractionFailureInForce?.() ?? false);
      return HttpResponse.json({ status: 'PENDING', event_id: event.id });
    }),

    // Search Memories (api-reference/memory/search-memories): entity ids only inside `filters` (the SDK refuses them
    // top-level), top_k 1..1000 (default 10), threshold default 0.1; `keywords` fails with 500 (Memory Filters).
    http.post(`${host}/v3/memories/search/`, async ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const body = await readJson(request);
      if (body === undefined || typeof body.query !== 'string' || body.query === '') return failure(400, { error: 'query is required' });
      if (entityKeys.some((key) => key in body)) return failure(400, { error: 'Top-level entity parameters are not supported; use filters.' });
      const topK = body.top_k ?? 10;
      if (typeof topK !== 'number' || topK < 1 || topK > 1000) return failure(400, { error: 'top_k must be between 1 and 1000' });
      try {
        const matches = compileMem0Filters(body.filters, { onSearch: true });
        const ranked = rankMemories([...store.memories.values()].filter(matches), body.query, typeof body.threshold === 'number' ? body.threshold : 0.1, topK);
        return HttpResponse.json({ results: ranked.map(({ memory, score }) => searchedMemory(memory, score)) });
      } catch (error) {
        return filterFailure(error);
      }
    }),

    // Get Memories (api-reference/memory/get-memories): `filters` required, `page_size` default 100 and at most 200,
    // `{count, next, previous, results}` with `next` as a URL; the order is not documented (see `listOrder`).
    http.post(`${host}/v3/memories/`, async ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('page_size') ?? 100);
      if (!Number.isInteger(page) || page < 1) return failure(404, { detail: 'Invalid page.' });
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) return failure(400, { error: 'page_size must be between 1 and 200' });
      const body = await readJson(request);
      if (body === undefined || body.filters === undefined) return failure(400, { error: 'filters is required' });
      try {
        const matches = compileMem0Filters(body.filters, { onSearch: false });
        const direction = store.listOrder === 'newest-first' ? -1 : 1;
        const rank = (memory: Mem0FakeMemory) => (store.listOrder === 'unordered' ? createHash('sha256').update(memory.id).digest('hex') : '');
        const all = [...store.memories.values()]
          .filter(matches)
          .sort((left, right) => (store.listOrder === 'unordered' ? rank(left).localeCompare(rank(right)) : direction * (left.sequence - right.sequence)));
        const results = all.slice((page - 1) * pageSize, page * pageSize);
        const link = (target: number) => `${host}/v3/memories/?page=${target}&page_size=${pageSize}`;
        return HttpResponse.json({
          count: all.length,
          next: page * pageSize < all.length ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results: results.map(listedMemory),
        });
      } catch (error) {
        return filterFailure(error);
      }
    }),

    // Get Memory (api-reference/memory/get-memory): a non-UUID id is 400, an unknown one 404 `{error}`.
    http.get(`${host}/v1/memories/:memoryId/`, ({ request, params }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const found = findMemory(String(params.memoryId));
      return found instanceof Response ? found : HttpResponse.json(detailedMemory(found));
    }),

    // Update Memory (api-reference/memory/update-memory): text, metadata or expiration_date, else 400; metadata is replaced.
    http.put(`${host}/v1/memories/:memoryId/`, async ({ request, params }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const found = findMemory(String(params.memoryId));
      if (found instanceof Response) return found;
      const body = await readJson(request);
      if (body === undefined || (body.text === undefined && body.metadata === undefined && body.expiration_date === undefined)) {
        return failure(400, { error: 'Provide text, metadata or expiration_date' });
      }
      store.update(found, {
        ...(typeof body.text === 'string' ? { text: body.text } : {}),
        ...(typeof body.metadata === 'object' && body.metadata !== null ? { metadata: body.metadata as Record<string, unknown> } : {}),
      });
      return HttpResponse.json(detailedMemory(found));
    }),

    // Delete Memory (api-reference/memory/delete-memory): `{message}`.
    http.delete(`${host}/v1/memories/:memoryId/`, ({ request, params }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const found = findMemory(String(params.memoryId));
      if (found instanceof Response) return found;
      store.memories.delete(found.id);
      return HttpResponse.json({ message: 'Memory deleted successfully!' });
    }),

    // Batch Delete (api-reference/memory/batch-delete): at most 1000 ids, each a UUID (400 otherwise).
    http.delete(`${host}/v1/batch/`, async ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const body = await readJson(request);
      const entries = body?.memories;
      if (!Array.isArray(entries)) return failure(400, { error: 'memories is required' });
      if (entries.length > 1000) return failure(400, { error: 'Maximum of 1000 memories can be deleted in a single request' });
      const ids = entries.map((entry: { memory_id?: unknown }) => String(entry.memory_id));
      if (!ids.every((id) => uuidPattern.test(id))) return failure(400, { error: 'memory_id should be a valid UUID' });
      const deleted = ids.filter((id) => store.memories.delete(id)).length;
      return HttpResponse.json({ message: `Successfully deleted ${deleted} memories` });
    }),

    // Get Event (api-reference/events/get-event): 404 for an unknown event; `payload` is "the original payload",
    // echoed as `eventPayloadEcho` says, since how much of the request it keeps is not documented.
    http.get(`${host}/v1/event/:eventId/`, ({ request, params }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const event = store.events.get(String(params.eventId));
      if (event === undefined) return failure(404, { error: "Event not found or you don't have permission to access it." });
      store.advance(event);
      return HttpResponse.json(eventBody(event, settings.eventPayloadEcho));
    }),

    // Get Events (api-reference/events/get-events): the whole project's events, newest first, paged by number.
    http.get(`${host}/v1/events/`, ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      if (!Number.isInteger(page) || page < 1) return failure(404, { detail: 'Invalid page.' });
      const all = [...store.events.values()].reverse();
      const link = (target: number) => `${host}/v1/events/?page=${target}`;
      return HttpResponse.json({
        count: all.length,
        next: page * eventsPageSize < all.length ? link(page + 1) : null,
        previous: page > 1 ? link(page - 1) : null,
        results: all.slice((page - 1) * eventsPageSize, page * eventsPageSize).map((event) => eventBody(event, settings.eventPayloadEcho)),
      });
    }),

    // A real server routes on the decoded path: `acme%2Falice` becomes `acme/alice` and the
    // path has one segment too many. msw decodes `:params` before matching, so this route
    // takes everything under /v2/entities/ and matches the decoded pathname itself.
    // Get Profile (docs.mem0.ai/api-reference/profiles/get-profile): "a known entity that has
    // no profile yet is a normal 200 carrying a `status`. A 404 means only that no such entity exists."
    http.get(`${host}/v2/entities/*`, ({ request }) => {
      const refused = unauthorized(request);
      if (refused) return refused;
      const route = /^\/v2\/entities\/user\/([^/]+)\/profile\/$/.exec(decodeURIComponent(new URL(request.url).pathname));
      if (route === null) return failure(404, { detail: 'Not found.' });
      const profile = store.profile(route[1] as string);
      return profile === undefined ? failure(404, { error: 'Entity not found.' }) : HttpResponse.json(profile);
    }),
  ];

  return {
    host,
    apiKey,
    store,
    handlers,
    /** Where injected faults answer: every endpoint but the constructor's ping. */
    faultUrls: [`${host}/v1/memories/*`, `${host}/v1/batch/`, `${host}/v1/event/*`, `${host}/v1/events/`, `${host}/v2/*`, `${host}/v3/*`],
    /** Finishes queued extraction and profile generation. */
    drain: () => store.drain(),
  };
}

/** A fake mem0 platform. */
export type Mem0Fake = ReturnType<typeof createMem0Fake>;
