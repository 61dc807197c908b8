import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySnapshot, refusalsOnly } from './test-support/company-snapshot';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
beforeAll(async () => {
  harness = await startServerHarness({ maxBodyBytes: 64 * 1024 });
  for (const [token, company] of [['agentAcme', 'acme'], ['agentGlobex', 'globex']] as const) {
    expect((await harness.call('POST', `/v1/companies/${company}/memory/records`, { token: harness.token[token], body: { records: [{ text: `Fact of ${company}.` }] } })).status).toBe(200);
  }
});
afterAll(async () => harness.close());

/** Sends raw bytes, so a test controls Content-Length and chunking. */
function rawRequest(path: string, token: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolveResponse, reject) => {
    const url = new URL(path, harness.server.url);
    const outgoing = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolveResponse({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('a token of company A naming company B', () => {
  it('is refused in the path, the body scope, the source and the header context, and B gets nothing', async () => {
    const before = await companySnapshot(harness.service, 'globex');
    const attempts: Array<[string, unknown]> = [
      ['/v1/companies/globex/memory/records', { records: [{ text: 'planted by acme' }] }],
      ['/v1/companies/acme/memory/records', { scope: { companyId: 'globex' }, records: [{ text: 'planted by acme' }] }],
      ['/v1/companies/acme/memory/capture', { source: { kind: 'manual_note', companyId: 'globex' }, payload: { text: 'planted by acme' } }],
      ['/v1/companies/acme/memory/query', { query: 'fact', scope: { companyId: 'globex' } }],
      ['/v1/companies/acme/memory/list', { scope: { companyId: 'globex' } }],
    ];
    for (const [path, body] of attempts) {
      const response = await harness.call('POST', path, { token: harness.token.agentAcme, body });
      expect(`${path} ${response.status}`).toBe(`${path} 403`);
      expect(response.body.code).toBe('MEMORY_SCOPE_VIOLATION');
    }
    // Path tricks never reach another company: they are other company ids, or no route.
    for (const path of ['/v1/companies/..%2Fglobex/memory/list', '/v1/companies/globex%00/memory/list', '/v1/companies/%EF%BD%87lobex/memory/list', '/v1/companies/acme/../globex/memory/list']) {
      const response = await harness.call('POST', path, { token: harness.token.agentAcme, body: {} });
      expect([403, 404, 422]).toContain(response.status);
    }
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'globex'), ['MEMORY_SCOPE_VIOLATION'], ['planted by acme'])).toBeUndefined();
  });

  it('refuses a company admin reaching another company through control and explorer', async () => {
    const before = await companySnapshot(harness.service, 'globex');
    expect((await harness.call('POST', '/v1/companies/globex/control/bindings', { token: harness.token.adminAcme, body: { key: 'planted', providerId: 'memory' } })).status).toBe(403);
    expect((await harness.call('PUT', '/v1/companies/globex/control/targets', { token: harness.token.adminAcme, body: { target: { targetType: 'company' }, bindingKey: 'default' } })).status).toBe(403);
    expect((await harness.call('GET', '/v1/companies/globex/explorer/operations', { token: harness.token.adminAcme })).status).toBe(403);
    expect((await harness.call('POST', '/v1/companies/globex/explorer/finance-events', { token: harness.token.adminAcme, body: { kind: 'other', biller: 'x', amountCents: 1 } })).status).toBe(403);
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'globex'), [])).toBeUndefined();
  });
});

describe('an agent token', () => {
  it('cannot act as another agent, nor reach control, explorer or hooks', async () => {
    const before = await companySnapshot(harness.service, 'acme');
    const asOther = await harness.call('POST', '/v1/companies/acme/memory/records', { token: harness.token.agentAcme, body: { scope: { agentId: 'writer' }, records: [{ text: 'written as someone else' }] } });
    expect(asOther.status).toBe(403);
    expect(asOther.body.detail).toMatch(/acts as itself/);
    expect((await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, body: { query: 'fact', scope: { agentId: 'writer' } } })).status).toBe(403);
    expect((await harness.call('GET', '/v1/companies/acme/control/bindings', { token: harness.token.agentAcme })).status).toBe(403);
    expect((await harness.call('PATCH', '/v1/companies/acme/control/bindings/default', { token: harness.token.agentAcme, body: { enabled: false } })).status).toBe(403);
    expect((await harness.call('GET', '/v1/companies/acme/explorer/operations', { token: harness.token.agentAcme })).status).toBe(403);
    expect((await harness.call('POST', '/v1/companies/acme/memory/hooks/manual_capture', { token: harness.token.agentAcme, body: { text: 'forged hook' } })).status).toBe(403);
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), ['MEMORY_SCOPE_VIOLATION'], ['written as someone else'])).toBeUndefined();
  });

  it('carries the run, cost and client headers into the operation log', async () => {
    const headers = { 'memplane-run-id': 'run-42', 'memplane-cost-event-id': 'cost-7', 'memplane-attribution-mode': 'included_in_run', 'memplane-client': 'paperclip/1.2.3' };
    const query = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, body: { query: 'fact' }, headers });
    expect(query.status).toBe(200);
    const entry = await harness.call('GET', `/v1/companies/acme/explorer/operations/${query.body.operationId}`, { token: harness.token.adminAcme });
    expect(entry.body).toMatchObject({ heartbeatRunId: 'run-42', costEventId: 'cost-7', attributionMode: 'included_in_run', actor: { kind: 'agent', id: 'planner' }, details: { client: { name: 'paperclip', version: '1.2.3' } } });
    const byRun = await harness.call('GET', '/v1/companies/acme/explorer/operations?runId=run-42', { token: harness.token.adminAcme });
    expect(byRun.body.items.map((item: { id: string }) => item.id)).toEqual([query.body.operationId]);
  });

  it('keeps run headers as the service checks them: a malformed run id is refused naming the header field', async () => {
    const response = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, body: { query: 'fact' }, headers: { 'memplane-run-id': 'x'.repeat(300) } });
    expect(response.status).toBe(422);
    expect(response.body.issues[0].path).toBe('context.heartbeatRunId');
    const mode = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, body: { query: 'fact' }, headers: { 'memplane-attribution-mode': 'free' } });
    expect(mode.status).toBe(422);
  });
});

describe('bodies', () => {
  it('refuses an oversized body with 413 whether or not it says its length, and stores nothing', async () => {
    const before = await companySnapshot(harness.service, 'acme');
    const big = Buffer.from(JSON.stringify({ records: [{ text: `oversized ${'x'.repeat(70 * 1024)}` }] }));
    const declared = await rawRequest('/v1/companies/acme/memory/records', harness.token.agentAcme, { 'content-length': String(big.length) }, [big]);
    expect(declared.status).toBe(413);
    const chunked = await rawRequest('/v1/companies/acme/memory/records', harness.token.agentAcme, { 'transfer-encoding': 'chunked' }, [big.subarray(0, 40_000), big.subarray(40_000)]);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'SERVER_BODY_TOO_LARGE' });
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), [])).toBeUndefined();
    const problem = JSON.parse(declared.body);
    expect(problem).toMatchObject({ status: 413, code: 'SERVER_BODY_TOO_LARGE' });
  });

  it('refuses prototype keys in a body and pollutes nothing', async () => {
    for (const rawBody of ['{"__proto__":{"polluted":true},"query":"fact"}', '{"constructor":{"prototype":{"polluted":true}},"query":"fact"}', '{"query":"fact","scope":{"__proto__":{"companyId":"globex"}}}']) {
      const response = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, rawBody });
      expect(`${rawBody} ${response.status}`).toBe(`${rawBody} 422`);
    }
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a body that is not declared JSON with 415', async () => {
    const response = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, rawBody: '{"query":"fact"}', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('SERVER_UNSUPPORTED_MEDIA_TYPE');
  });

  it('keeps Unicode whole and refuses text that is not well formed', async () => {
    const text = 'Zürich 東京 🚀 مرحبا \u200f e\u0301 — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢';
    const written = await harness.call('POST', '/v1/companies/acme/memory/records', { token: harness.token.agentAcme, body: { records: [{ text }] } });
    expect(written.status).toBe(200);
    const found = await harness.call('POST', '/v1/companies/acme/memory/list', { token: harness.token.agentAcme, body: { limit: 50 } });
    expect(found.body.items.map((item: { text: string }) => item.text)).toContain(text);
    // A lone surrogate, escaped in JSON, is not text: refused, naming the field.
    const lone = await harness.call('POST', '/v1/companies/acme/memory/records', { token: harness.token.agentAcme, rawBody: '{"records":[{"text":"broken \\ud800 text"}]}' });
    expect(lone.status).toBe(422);
    expect(lone.body.issues[0].path).toBe('records.0.text');
    // A company id with a control character is no company id.
    const control = await harness.call('POST', '/v1/companies/ac%01me/memory/list', { token: harness.token.operator, body: {} });
    expect(control.status).toBe(422);
  });
});

describe('tokens', () => {
  it('refuses a token at its next request once revoked, and keeps only hashes on disk', async () => {
    const { token, record } = await harness.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'temp' });
    expect((await harness.call('POST', '/v1/companies/acme/memory/list', { token, body: {} })).status).toBe(200);
    expect(await harness.tokens.revoke(record.id)).toBe(true);
    const before = await companySnapshot(harness.service, 'acme');
    const refused = await harness.call('POST', '/v1/companies/acme/memory/records', { token, body: { records: [{ text: 'after revocation' }] } });
    expect(refused.status).toBe(401);
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), [])).toBeUndefined();
    // The token table is in the service's SQLite file: its hash is there, the token never is.
    const database = Buffer.concat(await Promise.all(['memplane.db', 'memplane.db-wal'].map((name) => readFile(join(harness.folder, 'data', name)).catch(() => Buffer.alloc(0)))));
    expect(database.includes(token)).toBe(false);
    expect(database.includes(harness.token.operator)).toBe(false);
    expect(database.includes(createHash('sha256').update(token).digest('hex'))).toBe(true);
  });

  it('refuses an expired token', async () => {
    const { token } = await harness.tokens.issue({ role: 'admin', companyId: 'acme' }, { expiresAt: new Date(Date.now() + 60_000) });
    expect((await harness.call('GET', '/v1/session', { token })).status).toBe(200);
    harness.advanceTokenClock(120_000);
    expect((await harness.call('GET', '/v1/session', { token })).status).toBe(401);
  });

  it('refuses an agent token bound to a project (a memplane-mcp grant), and writes nothing', async () => {
    const { token } = await harness.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner', projectId: 'apollo' });
    const before = await companySnapshot(harness.service, 'acme');
    const write = await harness.call('POST', '/v1/companies/acme/memory/records', { token, body: { records: [{ text: 'outside the project' }] } });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    expect((await harness.call('POST', '/v1/companies/acme/memory/list', { token, body: {} })).status).toBe(403);
    expect((await harness.call('GET', '/v1/session', { token })).status).toBe(403);
    expect(refusalsOnly(before, await companySnapshot(harness.service, 'acme'), [])).toBeUndefined();
  });

  it('tells each token who it is and which companies it sees', async () => {
    const all = await harness.call('GET', '/v1/session', { token: harness.token.operator });
    expect(all.body).toMatchObject({ role: 'operator', allCompanies: true, companies: ['acme', 'globex'], actor: { kind: 'operator', operatorId: 'ops' } });
    const listed = await harness.call('GET', '/v1/session', { token: harness.token.opAcme });
    expect(listed.body).toMatchObject({ allCompanies: false, companies: ['acme'] });
    const admin = await harness.call('GET', '/v1/session', { token: harness.token.adminGlobex });
    expect(admin.body).toMatchObject({ role: 'admin', companies: ['globex'], actor: { kind: 'company', companyId: 'globex', role: 'admin' } });
  });
});

describe('errors', () => {
  it('answers an unknown route and an unknown binding with 404 problem details', async () => {
    const route = await harness.call('GET', '/v1/companies/acme/nothing', { token: harness.token.adminAcme });
    expect(route.status).toBe(404);
    expect(route.headers.get('content-type')).toBe('application/problem+json');
    const binding = await harness.call('GET', '/v1/companies/acme/control/bindings/missing', { token: harness.token.adminAcme });
    expect(binding.body).toMatchObject({ status: 404, code: 'MEMORY_NOT_FOUND', type: 'urn:memplane:problem:MEMORY_NOT_FOUND', title: 'Not Found' });
    const unresolved = await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.agentAcme, body: { query: 'x', bindingKey: 'missing' } });
    expect(unresolved.status).toBe(404);
  });

  it('refuses unknown query parameters and bad cursors naming them', async () => {
    const unknown = await harness.call('GET', '/v1/companies/acme/explorer/operations?colour=red', { token: harness.token.adminAcme });
    expect(unknown.status).toBe(422);
    const limit = await harness.call('GET', '/v1/companies/acme/explorer/operations?limit=many', { token: harness.token.adminAcme });
    expect(limit.status).toBe(422);
    expect(limit.body.issues[0].path).toBe('limit');
    const cursor = await harness.call('GET', '/v1/companies/acme/explorer/operations?cursor=forged', { token: harness.token.adminAcme });
    expect(cursor.status).toBe(400);
    expect(cursor.body.code).toBe('MEMORY_INVALID_CURSOR');
  });
});
