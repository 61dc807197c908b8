import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryApiCallError, MemoryError, MemoryRateLimitedError, MemoryTimeoutError, MemoryValidationError } from '@memplane/core';
import { startMemplaneServer, type RunningMemplaneServer } from '@memplane/server';
import { openMemplaneHost } from '@memplane/host';
import { MemoryAccessDeniedError, MemoryBindingNotFoundError, type MemoryService } from '@memplane/service';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestHarness } from '@paperclipai/plugin-sdk/testing';
import { createMemplanePaperclipPlugin } from '../worker/memplane-paperclip-plugin';
import { hostCompanyConfig } from '../worker/test-support/host-company-config';
import { company, workerTestManifest } from '../worker/test-support/paperclip-fixtures';
import { createHttpMemoryService } from './memplane-http-service';
import { createHttpTransport } from './memplane-http-transport';
import { problemError } from './memplane-problem-errors';
import { startLoopbackServer, type LoopbackServer } from './test-support/loopback-server';

const hostFetch = (url: string, init?: RequestInit) => fetch(url, init);
const anything = z.unknown();
const silent = { warn: () => undefined };

let loopback: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
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

/** A server that answers every request with this problem (and headers). */
async function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  loopback = await startLoopbackServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    response.end(JSON.stringify(body));
  });
  return createHttpTransport({ baseUrl: loopback.url, token: 'mps_test-token', timeoutMs: 5000, fetch: hostFetch });
}

const call = { method: 'POST' as const, path: '/v1/companies/acme/memory/query', operation: 'memory.query', companyId: 'acme', body: {} };

describe('problem details back to MemoryError classes', () => {
  it('maps each code to its class, keeping fields, retryability and Retry-After', async () => {
    const validation = await failureOf((await answering(422, { code: 'MEMORY_VALIDATION', status: 422, detail: 'bad', issues: [{ path: 'scope.agentId', message: 'is not an identifier' }] })).call(call, anything));
    expect(MemoryValidationError.isInstance(validation) && validation.field).toBe('scope.agentId');
    await loopback?.close();

    const denied = await failureOf((await answering(403, { code: 'MEMORY_SCOPE_VIOLATION', status: 403, detail: 'operator "x" is not granted this company' })).call(call, anything));
    expect(MemoryAccessDeniedError.isInstance(denied)).toBe(true);
    expect(denied).toMatchObject({ companyId: 'acme', reason: 'operator "x" is not granted this company' });
    await loopback?.close();

    const unbound = await failureOf((await answering(404, { code: 'MEMORY_CONFIGURATION', status: 404, detail: 'no default' })).call(call, anything));
    expect(MemoryBindingNotFoundError.isInstance(unbound)).toBe(true);
    await loopback?.close();

    const limited = await failureOf((await answering(429, { code: 'MEMORY_RATE_LIMITED', status: 429, detail: 'slow down', retryable: true }, { 'retry-after': '7' })).call(call, anything));
    expect(MemoryRateLimitedError.isInstance(limited)).toBe(true);
    expect(limited).toMatchObject({ isRetryable: true, retryAfterMs: 7000, statusCode: 429 });
    await loopback?.close();

    const timedOut = await failureOf((await answering(504, { code: 'MEMORY_TIMEOUT', status: 504, detail: 'provider slow' })).call(call, anything));
    expect(MemoryTimeoutError.isInstance(timedOut) && timedOut.isRetryable).toBe(true);
    await loopback?.close();

    const internal = await failureOf((await answering(500, { code: 'SERVER_INTERNAL', status: 500, detail: 'The server failed to handle the request.' })).call(call, anything));
    expect(MemoryApiCallError.isInstance(internal) && internal.statusCode).toBe(500);
  });

  it('turns any failed answer, whatever its status and body, into a MemoryError with a stable code', () => {
    const codes = ['MEMORY_VALIDATION', 'MEMORY_SCOPE_VIOLATION', 'MEMORY_NOT_FOUND', 'MEMORY_UNSUPPORTED_CAPABILITY', 'MEMORY_API_CALL', 'MEMORY_RATE_LIMITED', 'MEMORY_TIMEOUT', 'MEMORY_INVALID_CURSOR', 'MEMORY_CONFLICT', 'MEMORY_INVALID_RESPONSE', 'MEMORY_CONFIGURATION'];
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ code: fc.oneof(fc.constantFrom(...codes, 'SERVER_INTERNAL', 'SERVER_UNAUTHENTICATED', 'SERVER_BODY_TOO_LARGE'), fc.string()), detail: fc.option(fc.string(), { nil: undefined }), issues: fc.option(fc.array(fc.record({ path: fc.string(), message: fc.string() })), { nil: undefined }), retryable: fc.option(fc.boolean(), { nil: undefined }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), body, fc.option(fc.string(), { nil: null }), (status, json, retryAfter) => {
        const error = problemError({ status, body: json, text: '', retryAfter, call, origin: 'http://127.0.0.1:4680' });
        expect(MemoryError.isInstance(error)).toBe(true);
        expect(codes).toContain(error.code);
      }),
    );
  });

  it('cuts a token the server echoes out of the kept response body', async () => {
    loopback = await startLoopbackServer((request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy error for ${String(request.headers.authorization)}`);
    });
    const transport = createHttpTransport({ baseUrl: loopback.url, token: 'mps_echo-me-not', timeoutMs: 5000, fetch: hostFetch });
    const failure = await failureOf(transport.call(call, anything));
    expect(MemoryApiCallError.isInstance(failure) && failure.responseBody).toBe('proxy error for Bearer [token]');
    expect(JSON.stringify({ ...failure, message: failure.message })).not.toContain('echo-me-not');
  });

  it('sends the run, attribution and client as headers, the token only as Authorization', async () => {
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    const transport = createHttpTransport({ baseUrl: `${loopback.url}/memplane/`, token: 'mps_header-token', timeoutMs: 5000, fetch: hostFetch });
    await transport.call({ ...call, context: { actor: { kind: 'agent', companyId: 'acme', agentId: 'a' }, heartbeatRunId: 'run-9', attributionMode: 'included_in_run', client: { name: 'paperclip' } } }, anything);
    const [seen] = loopback.requests;
    expect(seen?.path).toBe('/memplane/v1/companies/acme/memory/query');
    expect(seen?.headers).toMatchObject({ authorization: 'Bearer mps_header-token', 'memplane-run-id': 'run-9', 'memplane-attribution-mode': 'included_in_run', 'memplane-client': 'paperclip' });
    expect(seen?.body).toBe('{}');
  });
});

describe('deadlines', () => {
  it('gives up on a server that never answers with MEMORY_TIMEOUT (retryable) at the configured deadline', async () => {
    loopback = await startLoopbackServer(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const transport = createHttpTransport({ baseUrl: loopback.url, token: 'mps_slow', timeoutMs: 2500, fetch: hostFetch });
    const pending = failureOf(transport.call(call, anything));
    await vi.advanceTimersByTimeAsync(2499);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const failure = await pending;
    expect(MemoryTimeoutError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ timeoutMs: 2500, isRetryable: true });
  });
});

describe('a server that answers without end', () => {
  it('is refused once the answer passes the cap, without waiting for the rest', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // 9 MiB, then the connection stays open: only a cap that reads as it goes answers.
      for (let index = 0; index < 9; index += 1) response.write(chunk);
    });
    const transport = createHttpTransport({ baseUrl: loopback.url, token: 'mps_flood', timeoutMs: 60_000, fetch: hostFetch });
    const failure = await failureOf(transport.call(call, anything));
    expect(failure).toMatchObject({ code: 'MEMORY_INVALID_RESPONSE', message: expect.stringContaining('more than 8388608 characters') });
  });
});

describe('a server that stalls after its headers', () => {
  it('is given up on at the deadline too', async () => {
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"items":[');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const transport = createHttpTransport({ baseUrl: loopback.url, token: 'mps_stall', timeoutMs: 1000, fetch: hostFetch });
    const pending = failureOf(transport.call(call, anything));
    // Let the headers arrive before the deadline passes.
    while (loopback.requests.length === 0) await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(MemoryTimeoutError.isInstance(await pending)).toBe(true);
  });
});

describe('against a real memplane serve', () => {
  let folder: string;
  let service: MemoryService;
  let server: RunningMemplaneServer;

  afterEach(async () => {
    await server.close();
    await service.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a company outside the token grant is MemoryAccessDeniedError, a bad request a MemoryValidationError naming the field', async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-http-'));
    // The host of memplane serve: the service on the folder and its token store.
    const memplaneHost = await openMemplaneHost({ dataDirectory: folder });
    service = memplaneHost.service;
    const tokens = memplaneHost.tokens;
    const { token } = await tokens.issue({ role: 'operator', operatorId: 'paperclip', companyIds: ['acme'] });
    server = await startMemplaneServer({ service, verifyToken: (value) => tokens.verify(value), port: 0, rateLimit: false, inspectorDirectory: false });
    const client = createHttpMemoryService(createHttpTransport({ baseUrl: server.url, token, timeoutMs: 5000, fetch: hostFetch }), silent);

    const system = (companyId: string) => ({ actor: { kind: 'system', component: 'paperclip-plugin' }, companyId }) as const;
    const foreign = await failureOf(client.control(system('globex')).listBindings());
    expect(MemoryAccessDeniedError.isInstance(foreign)).toBe(true);
    const invalid = await failureOf(client.control(system('acme')).createBinding({ key: '', providerId: 'markdown' }));
    expect(MemoryValidationError.isInstance(invalid) && invalid.issues.map((issue) => issue.path)).toContain('key');
    expect(await client.control(system('acme')).getBinding('none')).toBeUndefined();
  });
});

describe('a host that refuses private addresses (Paperclip ctx.http)', () => {
  // What Paperclip 2026.916.1 throws through ctx.http.fetch for a loopback or private memplane serve.
  const refusingHost = (hostname: string) => async (): Promise<Response> => {
    throw new Error(`All resolved IPs for ${hostname} are in private/reserved ranges`);
  };

  it('is a configuration error that is not retried and says to use a public https address, not an unreachable server', async () => {
    for (const [baseUrl, hostname] of [
      ['http://127.0.0.1:4680', '127.0.0.1'],
      ['https://memory.internal', 'memory.internal'],
      ['http://[::1]:4680', '::1'],
    ] as const) {
      const transport = createHttpTransport({ baseUrl, token: 'mps_never-in-errors', timeoutMs: 5000, fetch: refusingHost(hostname) });
      const failure = await failureOf(transport.call({ method: 'GET', path: '/v1/session', operation: 'session' }, anything));
      expect(failure.code).toBe('MEMORY_CONFIGURATION');
      expect(failure.isRetryable).toBe(false);
      expect(failure.message).toMatch(/private\/reserved ranges/);
      expect(failure.message).toMatch(/public https:\/\/ address/);
      expect(failure.message).not.toContain('mps_never-in-errors');
    }
  });

  it('any other fetch failure stays a retryable MEMORY_API_CALL', async () => {
    const transport = createHttpTransport({ baseUrl: 'https://memory.example.com', token: 'mps_t', timeoutMs: 5000, fetch: async () => Promise.reject(new TypeError('fetch failed: ECONNREFUSED')) });
    const failure = await failureOf(transport.call({ method: 'GET', path: '/v1/session', operation: 'session' }, anything));
    expect([failure.code, failure.isRetryable]).toEqual(['MEMORY_API_CALL', true]);
  });

  it('reaches the worker as a configuration error on the tool call, and health says what to do', async () => {
    const harness = createTestHarness({ manifest: workerTestManifest });
    hostCompanyConfig(harness, { acme: { service: { mode: 'http', url: 'http://127.0.0.1:4680', token: { type: 'secret_ref', secretId: '7b0e3d9c-1f2a-4e5b-8c6d-9a0b1c2d3e4f' } } } });
    harness.ctx.secrets.resolve = async () => 'mps_never-in-errors';
    harness.ctx.http.fetch = refusingHost('127.0.0.1');
    const plugin = createMemplanePaperclipPlugin();
    await plugin.definition.setup(harness.ctx);
    harness.seed({ companies: [company('acme')] });
    const answer = await harness.executeTool('memory_search', { query: 'x' }, { companyId: 'acme', agentId: 'planner', runId: 'r', projectId: 'p' });
    expect(answer.error).toMatch(/^MEMORY_CONFIGURATION: .*private\/reserved ranges/);
    expect(await plugin.definition.onHealth?.()).toMatchObject({ status: 'error', message: expect.stringMatching(/MEMORY_CONFIGURATION/) });
    await plugin.definition.onShutdown?.();
  });
});
