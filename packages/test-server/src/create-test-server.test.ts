import { MemoryValidationError } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer } from './create-test-server';

const baseUrl = 'https://notes.example.test';

/** A tiny stateful JSON API: notes with ids, a lookup and a filtered listing. */
function createNotesApi() {
  const notes = new Map<string, { id: string; text: string }>();
  const handlers = [
    http.post(`${baseUrl}/v1/notes`, async ({ request }) => {
      const body = (await request.json().catch(() => ({}))) as { text?: unknown };
      if (typeof body.text !== 'string') return HttpResponse.json({ error: 'text is required' }, { status: 400 });
      const note = { id: `note-${notes.size + 1}`, text: body.text };
      notes.set(note.id, note);
      return HttpResponse.json(note, { status: 201 });
    }),
    http.get(`${baseUrl}/v1/notes/:id`, ({ params }) => {
      const note = notes.get(String(params.id));
      return note === undefined ? HttpResponse.json({ error: 'not found' }, { status: 404 }) : HttpResponse.json(note);
    }),
    http.get(`${baseUrl}/v1/notes`, ({ request }) => {
      const contains = new URL(request.url).searchParams.get('contains') ?? '';
      return HttpResponse.json({ items: [...notes.values()].filter((note) => note.text.includes(contains)) });
    }),
  ];
  return { handlers, clear: () => notes.clear() };
}

const notesApi = createNotesApi();
const testServer = createTestServer(notesApi.handlers, { faultUrls: [`${baseUrl}/v1/*`] });
beforeAll(() => testServer.start());
afterEach(() => {
  testServer.reset();
  notesApi.clear();
});
afterAll(() => testServer.stop());

async function createNote(text: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/notes`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'test-key' },
    body: JSON.stringify({ text }),
  });
}

describe('createTestServer', () => {
  it('records every call with its body while the handler still reads the original', async () => {
    const created = await createNote('likes green tea');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await fetch(`${baseUrl}/v1/notes/${id}`);
    expect(await read.json()).toEqual({ id, text: 'likes green tea' });

    expect(testServer.calls).toHaveLength(2);
    const [post, get] = testServer.calls;
    expect(post).toMatchObject({
      method: 'POST',
      url: `${baseUrl}/v1/notes`,
      pathname: '/v1/notes',
      searchParams: {},
      bodyText: '{"text":"likes green tea"}',
      bodyJson: { text: 'likes green tea' },
    });
    expect(post?.headers['x-api-key']).toBe('test-key');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(Object.keys(post?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
    expect(get).toMatchObject({ method: 'GET', pathname: `/v1/notes/${id}`, bodyText: undefined, bodyJson: undefined });
  });

  it('records query parameters and keeps a body that is not JSON as text', async () => {
    await fetch(`${baseUrl}/v1/notes?contains=tea&limit=5`);
    const refused = await fetch(`${baseUrl}/v1/notes`, { method: 'POST', body: 'not json' });
    expect(refused.status).toBe(400);
    expect(testServer.calls[0]?.searchParams).toEqual({ contains: 'tea', limit: '5' });
    expect(testServer.calls[1]).toMatchObject({ bodyText: 'not json', bodyJson: undefined });
  });

  it('fails a request no handler answers instead of letting it reach the network', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // msw's error type differs between its versions; that the request failed is what counts.
      await expect(fetch('https://elsewhere.example.test/v1/anything')).rejects.toThrow();
      expect(printed.mock.calls.flat().join(' ')).toContain('https://elsewhere.example.test/v1/anything');
    } finally {
      printed.mockRestore();
    }
    expect(testServer.calls.map((call) => call.url)).toEqual(['https://elsewhere.example.test/v1/anything']);
  });

  it('puts handlers added with use in front until reset, which also clears calls and faults', async () => {
    testServer.use(http.get(`${baseUrl}/v1/notes`, () => HttpResponse.json({ items: [], overridden: true })));
    expect(await (await fetch(`${baseUrl}/v1/notes`)).json()).toEqual({ items: [], overridden: true });
    testServer.faults.inject({ kind: 'extraction_failure' });
    const { calls } = testServer;

    testServer.reset();

    expect(calls).toHaveLength(0);
    expect(testServer.faults.active).toEqual([]);
    expect(await (await fetch(`${baseUrl}/v1/notes`)).json()).toEqual({ items: [] });
    expect(calls).toHaveLength(1);
  });

  it('answers with the fault in force at the fault URLs before the fake', async () => {
    testServer.faults.inject({ kind: 'rate_limited', retryAfterSeconds: 7 });
    const limited = await createNote('never stored');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });

    testServer.faults.inject({ kind: 'server_error', status: 503 });
    const failed = await fetch(`${baseUrl}/v1/notes`);
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ error: 'server_error' });

    testServer.faults.inject({ kind: 'malformed_body' });
    const malformed = await fetch(`${baseUrl}/v1/notes`);
    expect(malformed.status).toBe(200);
    expect(await malformed.json()).toEqual({ unexpected: true });

    testServer.faults.reset();
    expect(await (await fetch(`${baseUrl}/v1/notes`)).json()).toEqual({ items: [] });
  });

  it('holds a request under a timeout fault until the client aborts, then settles the handler', async () => {
    const answers: Array<Response | Promise<Response> | undefined> = [];
    testServer.use(
      http.get(`${baseUrl}/slow/notes`, ({ request }) => {
        const answer = testServer.faults.respond(request);
        answers.push(answer);
        return answer ?? HttpResponse.json({ items: [] });
      }),
    );
    testServer.faults.inject({ kind: 'timeout' });

    const request = fetch(`${baseUrl}/slow/notes`, { signal: AbortSignal.timeout(30) });

    await expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(answers).toHaveLength(1);
    await expect(answers[0]).resolves.toMatchObject({ type: 'error' });
    expect(testServer.faults.hangingRequestCount).toBe(0);
  });

  it('refuses invalid settings with a validation error naming the field', () => {
    expect(() => createTestServer([], { faultUrls: [''] })).toThrow(MemoryValidationError);
    expect(() => createTestServer([], { faultUrls: [''] })).toThrow(expect.objectContaining({ field: 'faultUrls.0' }));
  });
});
