import { http, HttpResponse, type RequestHandler } from 'msw';
import { findFilterProblem, matchesFilter, type FakeFilter } from './supermemory-fake-filters';
import { error, metadataProblem, paginate, readBody, readPaging, sortByCreated, tagPattern, toDocumentResponse, toMemoryEntry } from './supermemory-fake-responses';
import { createSupermemoryFakeStore, tokenize, type FakeMemory, type FlatMetadata, type SupermemoryFakeStore } from './supermemory-fake-store';

/**
 * A stateful msw fake of the Supermemory API (test-only, not part of the build). Response
 * shapes follow the SDK 4.25.4 types and the docs pages named in the README's fixture table.
 * It enforces what the real API enforces and the adapter relies on: Bearer auth, the container
 * tag charset, flat metadata with key rules, the filter grammar, 1–100 memories of at most
 * 10,000 characters per create, and page limits.
 */
export interface SupermemoryFake {
  /** The msw handlers, for `createTestServer`. */
  handlers: RequestHandler[];
  /** The state, for assertions and `settle()`. */
  store: SupermemoryFakeStore;
  /**
   * Misbehaviours a test can switch on to check the adapter's own defences. `ignoreFilters`
   * makes search and the memory list ignore `filters`, like a provider that drops them.
   * `ignoreOrder` makes the memory list ignore `order` and answer oldest first: the list and
   * its parameters are undocumented (the same reading as `ignoreFilters`).
   */
  misbehaviour: { ignoreFilters: boolean; ignoreOrder: boolean };
}

/** Settings of {@link createSupermemoryFake}. */
export interface SupermemoryFakeSettings {
  /** The base URL to answer at. Default `https://api.supermemory.ai`. */
  baseURL?: string;
  /** Whether extraction jobs started now must fail (the `extraction_failure` fault). */
  isExtractionFailureInForce?: () => boolean;
}

/** Creates the fake API over a fresh store. */
export function createSupermemoryFake(settings: SupermemoryFakeSettings = {}): SupermemoryFake {
  const base = (settings.baseURL ?? 'https://api.supermemory.ai').replace(/\/+$/, '');
  const store = createSupermemoryFakeStore();
  // SDK 4.25.4 sends `Authorization: Bearer <apiKey>`; anything else is a 401 (SDK `AuthenticationError`).
  const authorized = (request: Request) => /^Bearer \S+$/.test(request.headers.get('authorization') ?? '');

  // Every handler checks auth first and reads its JSON body; `answer` gets the body or an error response.
  const route =
    (answer: (body: Record<string, unknown>, request: Request, params: Record<string, string>) => Response | Promise<Response>) =>
    async ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
      if (!authorized(request)) return error(401, 'Unauthorized');
      const hasBody = request.method !== 'GET' && request.headers.get('content-type')?.includes('json');
      const body = hasBody ? await readBody(request) : {};
      if (body === undefined) return error(400, 'Invalid JSON body');
      return answer(body, request, params as Record<string, string>);
    };

  const misbehaviour = { ignoreFilters: false, ignoreOrder: false };

  function filterOf(body: Record<string, unknown>): FakeFilter | undefined | Response {
    if (body.filters === undefined || misbehaviour.ignoreFilters) return undefined;
    const problem = findFilterProblem(body.filters);
    return problem === undefined ? (body.filters as FakeFilter) : error(400, `Invalid filters: ${problem}`);
  }

  const sourceDocuments = (memory: FakeMemory) =>
    memory.documentIds.flatMap((documentId) => {
      const document = store.documents.get(documentId);
      return document === undefined ? [] : [{ id: document.id, createdAt: document.createdAt, updatedAt: document.updatedAt, metadata: document.metadata, title: null, type: 'text' }];
    });

  const handlers: RequestHandler[] = [
    // Source: SDK `client.add` / `documents.add` and the docs page "Add Context" (ingestion/add-memories).
    http.post(`${base}/v3/documents`, route((body) => {
      if (typeof body.content !== 'string' || body.content.trim() === '') return error(400, 'content is required');
      const tag = body.containerTag ?? (Array.isArray(body.containerTags) ? body.containerTags[0] : undefined);
      if (typeof tag !== 'string' || !tagPattern.test(tag)) return error(400, 'Invalid container tag');
      const problem = metadataProblem(body.metadata);
      if (problem !== undefined) return error(400, problem);
      const document = store.addDocument({
        content: body.content,
        containerTag: tag,
        metadata: (body.metadata ?? {}) as FlatMetadata,
        ...(typeof body.customId === 'string' ? { customId: body.customId } : {}),
        failExtraction: settings.isExtractionFailureInForce?.() ?? false,
      });
      return HttpResponse.json({ id: document.id, status: document.status });
    })),
    // Registered before `/v3/documents/:id`, which would otherwise take `processing` as an id.
    http.get(`${base}/v3/documents/processing`, route(() => {
      const processing = [...store.documents.values()].filter((document) => document.status !== 'done' && document.status !== 'failed');
      return HttpResponse.json({
        documents: processing.map((document) => {
          const { content: _content, ...row } = toDocumentResponse(document, false) as ReturnType<typeof toDocumentResponse> & { content?: string };
          return row;
        }),
        totalCount: processing.length,
      });
    })),
    // Source: SDK `documents.get` (`DocumentGetResponse`) and the docs page "Document Operations".
    http.get(`${base}/v3/documents/:id`, route((_body, _request, params) => {
      const document = store.readDocument(String(params.id));
      return document === undefined ? error(404, 'Document not found') : HttpResponse.json(toDocumentResponse(document, true));
    })),
    http.patch(`${base}/v3/documents/:id`, route((body, _request, params) => {
      const document = store.findDocument(String(params.id));
      if (document === undefined) return error(404, 'Document not found');
      const problem = metadataProblem(body.metadata);
      if (problem !== undefined) return error(400, problem);
      if (body.metadata !== undefined) document.metadata = structuredClone(body.metadata) as FlatMetadata;
      if (typeof body.content === 'string' && body.content !== document.content) {
        document.content = body.content;
        document.status = 'queued';
      }
      document.updatedAt = store.tick();
      return HttpResponse.json({ id: document.id, status: document.status });
    })),
    http.delete(`${base}/v3/documents/:id`, route((_body, _request, params) => {
      const document = store.findDocument(String(params.id));
      if (document === undefined) return error(404, 'Document not found');
      // Derived memories are left alone: whether Supermemory removes them is not documented.
      store.documents.delete(document.id);
      return new HttpResponse(null, { status: 204 });
    })),
    // Source: SDK `documents.list` (`DocumentListResponse`); docs: limit default 50, max 200.
    http.post(`${base}/v3/documents/list`, route((body) => {
      const paging = readPaging(body, 200, 50);
      if (typeof paging === 'string') return error(400, paging);
      const filter = filterOf(body);
      if (filter instanceof Response) return filter;
      const tags = Array.isArray(body.containerTags) ? body.containerTags : undefined;
      const matching = [...store.documents.values()].filter(
        (document) =>
          !document.lightweight &&
          (tags === undefined || (tags.length === document.containerTags.length && tags.every((tag, index) => document.containerTags[index] === tag))) &&
          matchesFilter(filter, document.metadata),
      );
      const { slice, pagination } = paginate(sortByCreated(matching, body.order), paging);
      return HttpResponse.json({ memories: slice.map((document) => toDocumentResponse(document, body.includeContent === true)), pagination });
    })),
    // Source: SDK `client.search` (`SearchMemoriesResponse`) and the docs page "Search" (recall/search).
    http.post(`${base}/v4/search`, route((body) => {
      if (typeof body.q !== 'string' || body.q.trim() === '') return error(400, 'q is required');
      const tag = body.containerTag;
      if (tag !== undefined && (typeof tag !== 'string' || !tagPattern.test(tag))) return error(400, 'Invalid container tag');
      const filter = filterOf(body);
      if (filter instanceof Response) return filter;
      // SDK `SearchMemoriesParams.limit` (default 10); the fake refuses above 100, the most the adapter may ask.
      const limit = Number(body.limit ?? 10);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(400, 'limit must be 1 to 100');
      // Docs page "Search Parameters" (supermemory.ai/docs/search/parameters), memory search
      // `threshold`: 0–1, 0 least sensitive, 1 most, default 0.5 when the request sends none.
      const threshold = typeof body.threshold === 'number' ? body.threshold : 0.5;
      const include = (body.include ?? {}) as { forgottenMemories?: unknown; documents?: unknown };
      const includeForgotten = include.forgottenMemories === true;
      const terms = [...new Set(tokenize(body.q))];
      const results = [...store.memories.values()]
        .filter((memory) => (tag === undefined || memory.containerTag === tag) && memory.isLatest && (includeForgotten || !memory.isForgotten))
        .filter((memory) => matchesFilter(filter, store.filterableMetadata(memory)))
        .map((memory) => {
          const words = new Set(tokenize(memory.memory));
          return { memory, similarity: terms.length === 0 ? 0 : terms.filter((term) => words.has(term)).length / terms.length };
        })
        .filter((hit) => hit.similarity > 0 && hit.similarity >= threshold)
        .sort((left, right) => right.similarity - left.similarity)
        .slice(0, limit)
        .map(({ memory, similarity }) => ({
          id: memory.id,
          memory: memory.memory,
          metadata: Object.keys(memory.metadata).length === 0 ? null : memory.metadata,
          similarity,
          updatedAt: memory.updatedAt,
          version: memory.version,
          // SDK `SearchMemoriesResponse.Result.documents`: metadata only with include.documents.
          ...(include.documents === true ? { documents: sourceDocuments(memory) } : {}),
        }));
      return HttpResponse.json({ results, timing: 12, total: results.length });
    })),
    // Source: the docs page "Memory Operations" (recall/memory-operations), "Create Memories".
    http.post(`${base}/v4/memories`, route((body) => {
      const tag = body.containerTag;
      if (typeof tag !== 'string' || !tagPattern.test(tag)) return error(400, 'Invalid container tag');
      const inputs = body.memories;
      if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > 100) return error(400, 'memories must hold 1 to 100 items');
      for (const input of inputs as Array<Record<string, unknown>>) {
        if (typeof input.content !== 'string' || input.content.trim() === '' || input.content.length > 10_000) {
          return error(400, 'memories[].content must be 1 to 10000 characters');
        }
        const problem = metadataProblem(input.metadata);
        if (problem !== undefined) return error(400, problem);
      }
      const created = store.createMemories(tag, inputs as Array<{ content: string; isStatic?: boolean; metadata?: FlatMetadata }>);
      return HttpResponse.json({
        documentId: created.documentId,
        memories: created.memories.map((memory) => ({ id: memory.id, memory: memory.memory, isStatic: memory.isStatic, createdAt: memory.createdAt })),
      });
    })),
    // Source: supermemory's own MCP client and the docs page "Memories" (api-reference/memories): `containerTags` array form.
    http.post(`${base}/v4/memories/list`, route((body) => {
      const tags = Array.isArray(body.containerTags) ? body.containerTags : typeof body.containerTag === 'string' ? [body.containerTag] : undefined;
      const tag = tags?.[0];
      if (typeof tag !== 'string' || !tagPattern.test(tag)) return error(400, 'Invalid container tag');
      const paging = readPaging(body, 100, 20);
      if (typeof paging === 'string') return error(400, paging);
      const filter = filterOf(body);
      if (filter instanceof Response) return filter;
      const order = misbehaviour.ignoreOrder ? 'asc' : body.order;
      const { slice, pagination } = paginate(sortByCreated(store.memoriesIn(tag, filter), order), paging);
      return HttpResponse.json({ memoryEntries: slice.map(toMemoryEntry), pagination });
    })),
    // Source: SDK `memories.forget` and "Memory Operations", "Forget Memory": a soft delete.
    http.delete(`${base}/v4/memories`, route((body) => {
      if (typeof body.containerTag !== 'string') return error(400, 'containerTag is required');
      const memory = store.findMemory(body.containerTag, { id: body.id as string | undefined, content: body.content as string | undefined });
      if (memory === undefined || memory.isForgotten) return error(404, 'Memory not found');
      memory.isForgotten = true;
      memory.forgetReason = typeof body.reason === 'string' ? body.reason : null;
      memory.updatedAt = store.tick();
      return HttpResponse.json({ id: memory.id, forgotten: true });
    })),
    // Source: SDK `memories.updateMemory` and "Memory Operations", "Update Memory (Versioned)".
    http.patch(`${base}/v4/memories`, route((body) => {
      if (typeof body.containerTag !== 'string') return error(400, 'containerTag is required');
      if (typeof body.newContent !== 'string' || body.newContent.trim() === '') return error(400, 'newContent is required');
      const problem = metadataProblem(body.metadata);
      if (problem !== undefined) return error(400, problem);
      const previous = store.findMemory(body.containerTag, { id: body.id as string | undefined, content: body.content as string | undefined });
      if (previous === undefined || previous.isForgotten) return error(404, 'Memory not found');
      const next = store.updateMemory(previous, body.newContent, body.metadata as FlatMetadata | undefined);
      return HttpResponse.json({
        id: next.id,
        memory: next.memory,
        version: next.version,
        parentMemoryId: next.parentMemoryId,
        rootMemoryId: next.rootMemoryId,
        createdAt: next.createdAt,
        forgetAfter: null,
        forgetReason: null,
      });
    })),
    // Source: SDK `client.profile` (`ProfileResponse`) and the docs page "User Profiles" (recall/user-profiles).
    http.post(`${base}/v4/profile`, route((body) => {
      const tag = body.containerTag;
      if (typeof tag !== 'string' || !tagPattern.test(tag)) return error(400, 'Invalid container tag');
      const filter = filterOf(body);
      if (filter instanceof Response) return filter;
      const visible = store.memoriesIn(tag, filter).filter((memory) => memory.isLatest && !memory.isForgotten);
      return HttpResponse.json({
        profile: {
          static: visible.filter((memory) => memory.isStatic).map((memory) => memory.memory),
          dynamic: visible.filter((memory) => !memory.isStatic).slice(-10).map((memory) => memory.memory),
        },
      });
    })),
  ];
  return { handlers, store, misbehaviour };
}
