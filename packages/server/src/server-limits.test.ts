import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRoutes } from './create-memplane-server';
import { createTokenRateLimiter } from './server-rate-limit';
import { companySnapshot, refusalsOnly } from './test-support/company-snapshot';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

describe('the token rate limiter', () => {
  it('lets a burst through, refuses the next with a Retry-After, and refills with time', () => {
    let now = 0;
    const limiter = createTokenRateLimiter({ requestsPerMinute: 60, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Another token has its own bucket.
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    // A token's own rate overrides the default: 6 a minute is one every 10 s.
    const slow = createTokenRateLimiter({ burst: 1 }, () => now);
    expect(slow.take('c', 6).allowed).toBe(true);
    expect(slow.take('c', 6)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    // Without a burst setting, a tenth of the rate (at least 10, at most the rate itself).
    const defaults = createTokenRateLimiter({}, () => now);
    const allowedOf = (token: string, rate: number | undefined) => Array.from({ length: 100 }, () => defaults.take(token, rate).allowed).filter(Boolean).length;
    expect([allowedOf('d', undefined), allowedOf('e', 3000), allowedOf('f', 50), allowedOf('g', 2)]).toEqual([60, 100, 10, 2]);
  });
});

describe('rate limits over HTTP', () => {
  let harness: ServerHarness;
  let now = 1_000_000;
  beforeAll(async () => {
    harness = await startServerHarness({ rateLimit: { requestsPerMinute: 120, burst: 2 }, now: () => now });
  });
  afterAll(async () => harness.close());

  it('answers 429 with Retry-After per token, writes nothing, and a token grant sets its own rate', async () => {
    const list = (token: string) => harness.call('POST', '/v1/companies/acme/memory/list', { token, body: {} });
    expect((await list(harness.token.agentAcme)).status).toBe(200);
    expect((await list(harness.token.agentAcme)).status).toBe(200);
    const before = await companySnapshot(harness.service, 'acme');
    const limited = await harness.call('POST', '/v1/companies/acme/memory/records', { token: harness.token.agentAcme, body: { records: [{ text: 'over the limit' }] } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toMatchObject({ code: 'MEMORY_RATE_LIMITED', retryable: true });
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), [])).toBeUndefined();
    expect((await list(harness.token.adminAcme)).status).toBe(200);
    now += 500;
    expect((await list(harness.token.agentAcme)).status).toBe(200);
    const { token } = await harness.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'slow', requestsPerMinute: 1 });
    expect((await list(token)).status).toBe(200);
    expect((await list(token)).status).toBe(200);
    const slow = await list(token);
    expect(slow.status).toBe(429);
    expect(slow.headers.get('retry-after')).toBe('60');
  });
});

describe('hostile bodies (fast-check)', () => {
  let harness: ServerHarness;
  beforeAll(async () => {
    harness = await startServerHarness({ rateLimit: false });
    expect((await harness.call('POST', '/v1/companies/globex/memory/list', { token: harness.token.agentGlobex, body: {} })).status).toBe(200);
  });
  afterAll(async () => harness.close());

  const bodyEndpoints = ['capture', 'records', 'query', 'list', 'get', 'forget', 'correct', 'profile', 'provider-jobs', 'jobs/refresh'];
  const companyish = fc.constantFrom('acme', 'globex', 'ACME', 'acme ', 'ａｃｍｅ', '', 'acme\u0000');
  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.record({ query: fc.string(), scope: fc.record({ companyId: companyish, agentId: fc.string() }, { requiredKeys: [] }) }, { requiredKeys: [] }),
    fc.record({ records: fc.array(fc.record({ text: fc.string({ unit: 'grapheme' }), metadata: fc.jsonValue() }, { requiredKeys: [] })), scope: fc.record({ companyId: companyish }) }, { requiredKeys: [] }),
    fc.record({ source: fc.record({ kind: fc.string(), companyId: companyish }), payload: fc.record({ text: fc.string() }) }, { requiredKeys: [] }),
  );

  it('never answers 5xx, always problem details on refusal, and never writes into another company', async () => {
    const before = await companySnapshot(harness.service, 'globex');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyEndpoints), hostile, async (endpoint, body) => {
        const response = await harness.call('POST', `/v1/companies/acme/memory/${endpoint}`, { token: harness.token.agentAcme, rawBody: JSON.stringify(body) ?? 'null' });
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        if (response.status >= 400) expect(response.headers.get('content-type')).toBe('application/problem+json');
      }),
      { numRuns: 150, seed: 19 },
    );
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'globex'), [])).toBeUndefined();
  });

  it('answers every body route of every surface with a status below 500 for any JSON, as admin and as agent', async () => {
    const before = await companySnapshot(harness.service, 'globex');
    const routes = serverRoutes.filter((route) => route.body !== undefined).map((route) => ({
      method: route.method.toUpperCase(),
      path: route.path.replace(':companyId', 'acme').replace(':bindingKey', 'default').replace(':hookKind', 'manual_capture'),
    }));
    expect(routes.length).toBeGreaterThanOrEqual(15);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom('adminAcme' as const, 'agentAcme' as const), hostile, async (route, token, body) => {
        const response = await harness.call(route.method, route.path, { token: harness.token[token], rawBody: JSON.stringify(body) ?? 'null' });
        expect(response.status, `${route.method} ${route.path} ${JSON.stringify(response.body)}`).toBeLessThan(500);
      }),
      { numRuns: 200, seed: 1919 },
    );
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'globex'), [])).toBeUndefined();
  });

  it('answers every GET route with a status below 500 for any query string', async () => {
    const routes = serverRoutes.filter((route) => route.method === 'get').map((route) => ({
      path: route.path.replace(':companyId', 'acme').replace(':bindingKey', 'default').replace(':operationId', 'op_1'),
      keys: Object.keys(route.query?.shape ?? {}),
    }));
    const knownKeys = [...new Set(routes.flatMap((route) => route.keys))];
    const value = fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('2026-01-01T00:00:00Z', 'failed', 'agent', 'true', '-1', '1e9', '%', '\u0000'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.array(fc.tuple(fc.oneof(fc.constantFrom(...knownKeys), fc.string({ minLength: 1 })), value), { maxLength: 5 }), async (route, pairs) => {
        const query = new URLSearchParams(pairs);
        const response = await harness.call('GET', `${route.path}?${query.toString()}`, { token: harness.token.adminAcme });
        expect(response.status, `${route.path}?${query.toString()} ${JSON.stringify(response.body)}`).toBeLessThan(500);
      }),
      { numRuns: 200, seed: 2019 },
    );
  });
});
