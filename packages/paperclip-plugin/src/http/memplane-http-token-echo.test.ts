import { MemoryApiCallError, MemoryError, MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpTransport, type HostFetch } from './memplane-http-transport';
import { startLoopbackServer, type LoopbackServer } from './test-support/loopback-server';

// A server, or a proxy in front of it, that echoes the Authorization header back in what it answers.
const anything = z.unknown();
const call = { method: 'POST' as const, path: '/v1/companies/acme/memory/query', operation: 'memory.query', companyId: 'acme', body: {} };
const codes = ['MEMORY_VALIDATION', 'MEMORY_SCOPE_VIOLATION', 'MEMORY_NOT_FOUND', 'MEMORY_UNSUPPORTED_CAPABILITY', 'MEMORY_API_CALL', 'MEMORY_RATE_LIMITED', 'MEMORY_TIMEOUT', 'MEMORY_INVALID_CURSOR', 'MEMORY_CONFLICT', 'MEMORY_INVALID_RESPONSE', 'MEMORY_CONFIGURATION'];

let loopback: LoopbackServer | undefined;
afterEach(async () => {
  await loopback?.close();
  loopback = undefined;
});

async function failureOf(promise: Promise<unknown>): Promise<MemoryError> {
  try {
    await promise;
  } catch (error) {
    if (MemoryError.isInstance(error)) return error;
    throw error;
  }
  throw new TypeError('the call did not fail');
}

/** Every way the error reaches a reader: the tool text, JSON of the error and of every own property, down the cause chain. */
function everythingSaidBy(error: unknown): string {
  const said: string[] = [];
  for (let link: unknown = error, depth = 0; typeof link === 'object' && link !== null && depth < 10; depth += 1) {
    const own = Object.fromEntries(Object.getOwnPropertyNames(link).map((name) => [name, (link as Record<string, unknown>)[name]]));
    said.push(JSON.stringify(link), JSON.stringify(own), String((link as { message?: unknown }).message));
    for (const value of Object.values(own)) if (typeof value === 'string') said.push(value);
    link = (link as { cause?: unknown }).cause;
  }
  if (MemoryError.isInstance(error)) said.push(`${error.code}: ${error.message}`);
  return said.join('\n');
}

/** A transport whose host answers every call with this status, body and headers (no network). */
const answering = (token: string, status: number, text: string, headers: Record<string, string> = {}) =>
  createHttpTransport({ baseUrl: 'https://memory.example.com', token, timeoutMs: 5000, fetch: async () => new Response(text, { status, headers: { 'content-type': 'application/problem+json', ...headers } }) });

/** The token with each character written as a JSON \u escape, in mixed case: JSON.parse reads it back as the token. */
const unicodeEscaped = (token: string) =>
  [...token].map((character, index) => {
    const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${index % 2 === 0 ? hex : hex.toUpperCase()}`;
  }).join('');

describe('a token echoed in a problem body', () => {
  const token = 'mps_AbC-echoed_operator-token';

  it('is cut out of the detail the tool and the log show (a proxy that repeats the Authorization header)', async () => {
    loopback = await startLoopbackServer((request, response) => {
      response.writeHead(500, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ code: 'MEMORY_CONFIGURATION', status: 500, detail: `proxy saw ${String(request.headers.authorization)}` }));
    });
    const transport = createHttpTransport({ baseUrl: loopback.url, token, timeoutMs: 5000, fetch: (url, init) => fetch(url, init) });
    const failure = await failureOf(transport.call(call, anything));
    expect(loopback.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect([failure.code, failure.message]).toEqual(['MEMORY_CONFIGURATION', 'proxy saw Bearer [token]']);
    expect(everythingSaidBy(failure)).not.toContain(token);
  });

  it('is cut out of issues, paths, codes and every other class the codes map to', async () => {
    const validation = await failureOf(answering(token, 422, JSON.stringify({ code: 'MEMORY_VALIDATION', issues: [{ path: `headers.${token}`, message: `is not ${token}` }, { path: 'x', message: token }] })).call(call, anything));
    expect(MemoryValidationError.isInstance(validation) && [validation.field, validation.issues]).toEqual(['headers.[token]', [{ path: 'headers.[token]', message: 'is not [token]' }, { path: 'x', message: '[token]' }]]);
    for (const code of [...codes, 'SERVER_BODY_TOO_LARGE', `SERVER_${token}`]) {
      for (const body of [{ code, detail: `Bearer ${token}` }, { code }]) {
        const failure = await failureOf(answering(token, 429, JSON.stringify(body), { 'retry-after': '3' }).call(call, anything));
        expect(everythingSaidBy(failure)).not.toContain(token);
      }
    }
  });

  it('is cut out when the body writes it with JSON escapes, which JSON.parse decodes', async () => {
    const escaped = unicodeEscaped(token);
    expect(JSON.parse(`"${escaped}"`)).toBe(token);
    const failure = await failureOf(answering(token, 500, `{"code":"MEMORY_CONFIGURATION","detail":"proxy saw Bearer ${escaped}"}`).call(call, anything));
    expect(failure.message).toBe('proxy saw Bearer [token]');
    // A body that is not a problem is kept as text: read as JSON, it must not give the token back either.
    const kept = await failureOf(answering(token, 502, `{"upstream":"Bearer ${escaped}","slash":"${token.replace('_', '\\u005F')}"}`).call(call, anything));
    expect(MemoryApiCallError.isInstance(kept) && JSON.parse(kept.responseBody ?? '')).toEqual({ upstream: 'Bearer [token]', slash: '[token]' });
  });

  it('leaves no part of the token where the kept text is cut to 500 characters', async () => {
    const failure = await failureOf(answering(token, 502, `${'x'.repeat(490)}${token} and more`).call(call, anything));
    expect(MemoryApiCallError.isInstance(failure) && failure.responseBody).toBe(`${'x'.repeat(490)}[token] an`);
    expect(everythingSaidBy(failure)).not.toContain(token.slice(0, 8));
  });

  it('is never rejoined from pieces the server puts in two fields: the error then keeps only the status', async () => {
    // A token the error's own wording would complete (`<path>: <message>`).
    const split = 'mps_split: across-two-fields';
    const failure = await failureOf(answering(split, 422, JSON.stringify({ code: 'MEMORY_VALIDATION', issues: [{ path: 'mps_split', message: 'across-two-fields' }] })).call(call, anything));
    expect(everythingSaidBy(failure)).not.toContain(split);
    expect(failure).toMatchObject({ code: 'MEMORY_API_CALL', statusCode: 422, message: expect.stringMatching(/answered 422; what it said is left out/) });
  });
});

describe('a token echoed by the host when the call fails', () => {
  it('is cut from the message and never kept in a cause', async () => {
    const token = 'mps_host-echoed-token-value';
    for (const message of [`All resolved IPs for memory.internal are in private/reserved ranges (Authorization: Bearer ${token})`, `fetch failed for Bearer ${token}`]) {
      const fetchThatEchoes: HostFetch = async () => Promise.reject(new TypeError(message));
      const failure = await failureOf(createHttpTransport({ baseUrl: 'https://memory.internal', token, timeoutMs: 5000, fetch: fetchThatEchoes }).call(call, anything));
      expect(failure.message).toContain('Bearer [token]');
      expect(everythingSaidBy(failure)).not.toContain(token);
    }
  });
});

describe('any answer with the token planted anywhere', () => {
  const base64 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/='];
  const tokens = fc.string({ unit: fc.constantFrom(...base64), minLength: 16, maxLength: 43 }).map((tail) => `mps_${tail}`);
  /** A JSON text of `value`, with each occurrence of the token written plainly or with some characters escaped. */
  const encoded = (value: unknown, token: string, escapes: boolean[]) =>
    JSON.stringify(value)
      .split(token)
      .map((part, index) => (index === 0 ? part : `${[...token].map((character, at) => (escapes[(index + at) % escapes.length] === true ? (character === '/' ? '\\/' : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`) : character)).join('')}${part}`))
      .join('');

  const answers = tokens.chain((token) => {
    const planted = fc.oneof(fc.string(), fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}${token}${after}`), fc.constant(`Bearer ${token}`));
    const problem = fc.record(
      {
        code: fc.oneof(fc.constantFrom(...codes, 'SERVER_INTERNAL', 'SERVER_UNAUTHENTICATED', 'SERVER_BODY_TOO_LARGE'), planted),
        status: fc.integer({ min: 100, max: 599 }),
        detail: planted,
        title: planted,
        retryable: fc.boolean(),
        issues: fc.array(fc.record({ path: planted, message: planted, [token]: planted }), { maxLength: 3 }),
        extra: fc.dictionary(planted, fc.oneof(planted, fc.jsonValue()), { maxKeys: 3 }),
      },
      { requiredKeys: ['code'] },
    );
    return fc.record({
      token: fc.constant(token),
      escapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
      status: fc.constantFrom(300, 301, 307, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 504),
      // A problem body, any JSON, or text that is not JSON at all.
      sent: fc.oneof(problem.map((body) => ({ json: body })), fc.jsonValue().map((body) => ({ json: body })), planted.map((text) => ({ text }))),
      retryAfter: fc.option(planted, { nil: undefined }),
    });
  });

  it('never yields an error that says it, in its message, its fields or its causes', async () => {
    await fc.assert(
      fc.asyncProperty(answers, async ({ token, escapes, status, sent, retryAfter }) => {
        const text = 'json' in sent ? encoded(sent.json, token, escapes) : sent.text;
        const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter.replace(/[^\t\x20-\x7e]/g, '') };
        const failure = await failureOf(answering(token, status, text, headers).call(call, anything));
        expect(codes).toContain(failure.code);
        expect(everythingSaidBy(failure)).not.toContain(token);
      }),
    );
  });
});
