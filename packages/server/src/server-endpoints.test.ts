import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySnapshot, refusalsOnly } from './test-support/company-snapshot';
import { endpointCases, type EndpointCase } from './test-support/endpoint-cases';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
let cases: EndpointCase[];

beforeAll(async () => {
  // Every endpoint is called by the same few tokens many times in a row; the rate limit has its own tests (server-limits).
  harness = await startServerHarness({ rateLimit: false });
  // Both companies get their default binding and one record before anything is compared.
  for (const [token, company] of [['agentAcme', 'acme'], ['agentGlobex', 'globex']] as const) {
    const written = await harness.call('POST', `/v1/companies/${company}/memory/records`, { token: harness.token[token], body: { records: [{ text: `A fact of ${company}.` }] } });
    expect(written.status).toBe(200);
  }
  const listed = await harness.call('POST', '/v1/companies/acme/memory/list', { token: harness.token.agentAcme, body: {} });
  const handle = listed.body.items[0].handle;
  cases = endpointCases({ handle, operationId: listed.body.operationId, jobId: 'job_0000000000000000' });
});
afterAll(async () => harness.close());

/** The strings of a body long enough to recognise in a log entry. */
function textsOf(body: unknown): string[] {
  const texts: string[] = [];
  JSON.stringify(body ?? null, (_key, value: unknown) => {
    if (typeof value === 'string' && value.length >= 12) texts.push(value);
    return value;
  });
  return texts;
}

const toOther = (path: string) => path.replace('/companies/acme/', '/companies/globex/');
const foreignTokenOf = (name: EndpointCase['token']) => (name === 'agentAcme' ? 'agentGlobex' : 'adminGlobex');

describe('every endpoint over loopback', () => {
  it('answers a valid call with the expected status and JSON', async () => {
    const seen: string[] = [];
    for (const endpoint of cases) {
      const response = await harness.call(endpoint.route.split(' ')[0] ?? '', endpoint.path, { token: harness.token[endpoint.token], body: endpoint.body });
      seen.push(`${endpoint.route} ${response.status}`);
      expect(`${endpoint.route} ${response.status}`, JSON.stringify(response.body)).toBe(`${endpoint.route} ${endpoint.status}`);
      if (response.status >= 400) {
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(response.body).toMatchObject({ status: endpoint.status, code: expect.stringMatching(/^MEMORY_/) });
      }
    }
    expect(seen).toHaveLength(cases.length);
  });

  it('refuses a missing, malformed or unknown token with 401 and writes nothing', async () => {
    for (const endpoint of cases) {
      const before = [await companySnapshot(harness.service, 'acme'), await companySnapshot(harness.service, 'globex')];
      const method = endpoint.route.split(' ')[0] ?? '';
      for (const token of [undefined, 'mps_not-a-real-token', 'not a bearer token', harness.token.agentAcme.slice(0, -1)]) {
        const headers: Record<string, string> = token === undefined ? {} : { authorization: token.startsWith('mps_') ? `Bearer ${token}` : token };
        const response = await harness.call(method, endpoint.path, { body: endpoint.body, headers });
        expect(`${endpoint.route} ${response.status}`).toBe(`${endpoint.route} 401`);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="memplane"');
        expect(response.body).toMatchObject({ status: 401, code: 'SERVER_UNAUTHENTICATED' });
      }
      expect([await companySnapshot(harness.service, 'acme'), await companySnapshot(harness.service, 'globex')]).toEqual(before);
    }
  });

  it('refuses a token of another company with 403, and the named company gets nothing written', async () => {
    for (const endpoint of cases.filter((candidate) => candidate.path.includes('/companies/'))) {
      const method = endpoint.route.split(' ')[0] ?? '';
      for (const [token, path] of [
        [harness.token[foreignTokenOf(endpoint.token)], endpoint.path],
        [harness.token.opAcme, toOther(endpoint.path)],
      ] as const) {
        const target = path.includes('/acme/') ? 'acme' : 'globex';
        const before = await companySnapshot(harness.service, target);
        const response = await harness.call(method, path, { token, body: endpoint.body });
        expect(`${method} ${path} ${response.status}`, JSON.stringify(response.body)).toBe(`${method} ${path} 403`);
        expect(response.body).toMatchObject({ status: 403, code: 'MEMORY_SCOPE_VIOLATION' });
        expect(refusalsOnly(before, await companySnapshot(harness.service, target), ['MEMORY_SCOPE_VIOLATION'], textsOf(endpoint.body))).toBeUndefined();
      }
    }
  });

  it('refuses a body that is not JSON with 400, naming the body, and writes nothing', async () => {
    for (const endpoint of cases.filter((candidate) => candidate.body !== undefined)) {
      const before = await companySnapshot(harness.service, 'acme');
      const method = endpoint.route.split(' ')[0] ?? '';
      for (const rawBody of ['{"query": ', 'not json', '\u0000', '{"a":1}}']) {
        const response = await harness.call(method, endpoint.path, { token: harness.token[endpoint.token], rawBody });
        expect(`${endpoint.route} ${response.status}`).toBe(`${endpoint.route} 400`);
        expect(response.body).toMatchObject({ code: 'MEMORY_VALIDATION', issues: [{ path: 'body' }] });
      }
      // JSON of the wrong shape reaches the service, which names the field.
      const wrong = await harness.call(method, endpoint.path, { token: harness.token[endpoint.token], body: { unexpected: true } });
      expect(`${endpoint.route} ${wrong.status}`).toBe(`${endpoint.route} 422`);
      expect(wrong.body.issues.map((issue: { path: string }) => issue.path).join(' ')).toMatch(/unexpected|\w/);
      expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), ['MEMORY_VALIDATION'])).toBeUndefined();
    }
  });

  it('refuses malformed query parameters with 422 naming them, for every endpoint that takes a query', async () => {
    const withQuery = cases.filter((candidate) => candidate.path.includes('?'));
    expect(withQuery.length).toBeGreaterThanOrEqual(10);
    for (const endpoint of withQuery) {
      const method = endpoint.route.split(' ')[0] ?? '';
      for (const [extra, field] of [['unexpected=1', 'unexpected'], ['limit=lots', 'limit']] as const) {
        if (field === 'limit' && !/[?&]limit=/.test(endpoint.path)) continue;
        const path = `${endpoint.path.replace(/([?&])limit=\d+/, '$1')}&${extra}`.replace('?&', '?');
        const before = await companySnapshot(harness.service, 'acme');
        const response = await harness.call(method, path, { token: harness.token[endpoint.token] });
        expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 422`);
        expect(response.body.issues.map((issue: { path: string }) => issue.path)).toContain(field);
        expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), ['MEMORY_VALIDATION'])).toBeUndefined();
      }
    }
  });
});

describe('POST query with explain', () => {
  it('returns the markdown binding\'s trace of the returned snippets, and nothing about any other record', async () => {
    const path = '/v1/companies/acme/memory/query';
    // The endpoint cases above may have forgotten the first record.
    const written = await harness.call('POST', '/v1/companies/acme/memory/records', { token: harness.token.agentAcme, body: { records: [{ text: 'The acme staging database is rebuilt nightly.' }] } });
    expect(written.status).toBe(200);
    const response = await harness.call('POST', path, { token: harness.token.agentAcme, body: { query: 'staging database', explain: true } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const returned = new Set(response.body.snippets.map((snippet: { handle: { providerRecordId: string } }) => snippet.handle.providerRecordId));
    expect(returned.size).toBeGreaterThan(0);
    expect(response.body.explanation.steps.length).toBeGreaterThan(0);
    for (const step of response.body.explanation.steps) expect(returned.has(step.handle.providerRecordId)).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain('globex');
    const plain = await harness.call('POST', path, { token: harness.token.agentAcme, body: { query: 'fact of acme' } });
    expect(plain.body).not.toHaveProperty('explanation');
    const refused = await harness.call('POST', path, { token: harness.token.agentAcme, body: { query: 'fact of acme', explain: 'yes' } });
    expect(refused.status).toBe(422);
    expect(refused.body.issues.map((issue: { path: string }) => issue.path)).toContain('explain');
    // The flag and the trace are documented as served.
    const document = (await harness.call('GET', '/openapi.json', {})).body;
    const operation = document.paths['/v1/companies/{companyId}/memory/query'].post;
    expect(operation.requestBody.content['application/json'].schema.properties.explain).toMatchObject({ type: 'boolean' });
    expect(operation.responses['200'].content['application/json'].schema.properties).toHaveProperty('explanation');
  });
});
