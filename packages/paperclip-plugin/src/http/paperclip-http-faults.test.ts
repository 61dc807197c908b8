import { createTestHarness, type TestHarness } from '@paperclipai/plugin-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemplanePaperclipPlugin, type MemplanePaperclipPlugin } from '../worker/memplane-paperclip-plugin';
import { hostCompanyConfig } from '../worker/test-support/host-company-config';
import { comment, company, issue, workerTestManifest } from '../worker/test-support/paperclip-fixtures';
import { startWorker, type StartedWorker } from '../worker/test-support/worker-harness';
import { startLoopbackServer, type LoopbackServer } from './test-support/loopback-server';

const markdownCompany = { bindings: [{ key: 'default', providerId: 'markdown', hooks: { issueCommentCapture: true } }], default: 'default' };
const run = (companyId: string, agentId: string, runId: string) => ({ companyId, agentId, runId, projectId: `${companyId}-project` });
const capturedKey = (eventId: string) => ({ scopeKind: 'company' as const, scopeId: 'acme', namespace: 'memplane-captured', stateKey: `event:${eventId}` });
const handlerFailures = (harness: TestHarness) => harness.logs.filter((entry) => entry.level === 'error' && entry.message === 'memplane: event handler failed');

let worker: StartedWorker | undefined;
let loopback: LoopbackServer | undefined;
let plugin: MemplanePaperclipPlugin | undefined;
afterEach(async () => {
  await worker?.stop();
  await plugin?.definition.onShutdown?.();
  await loopback?.close();
  worker = undefined;
  plugin = undefined;
  loopback = undefined;
});

const serveToken = { type: 'secret_ref', secretId: '7b0e3d9c-1f2a-4e5b-8c6d-9a0b1c2d3e4f' };

function seedAcme(harness: TestHarness) {
  harness.seed({
    companies: [company('acme')],
    issues: [issue('acme', 'iss-1', 'Release', 'Plan the release')],
    issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Release trains leave on Thursdays.', { agentId: 'planner', runId: 'run-1' })],
  });
}

/** The plugin pointed at a loopback server that is not a memplane serve, with `token` as its secret. */
async function startAgainst(server: LoopbackServer, token: string): Promise<TestHarness> {
  const harness = createTestHarness({ manifest: workerTestManifest });
  hostCompanyConfig(harness, { acme: { service: { mode: 'http', url: server.url, token: serveToken, timeoutMs: 5000 }, ...markdownCompany } });
  harness.ctx.secrets.resolve = async () => token;
  plugin = createMemplanePaperclipPlugin();
  await plugin.definition.setup(harness.ctx);
  seedAcme(harness);
  return harness;
}

describe('memplane serve is down', () => {
  it('the handlers log and do not throw, nothing is recorded as captured, tools answer MEMORY_API_CALL, health says error', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http');
    const { harness } = worker;
    seedAcme(harness);
    await worker.server?.http.close();

    await expect(harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-1' })).resolves.toBeUndefined();
    await expect(harness.emit('agent.run.started', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1', companyId: 'acme' }, { companyId: 'acme' })).resolves.toBeUndefined();
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual([expect.stringMatching(/^MEMORY_API_CALL: memplane serve at http:\/\/127\.0\.0\.1:\d+ could not be reached/), expect.stringMatching(/^MEMORY_API_CALL/)]);
    // A redelivery once the server is back captures the comment: the failed attempt left no mark.
    expect(await harness.ctx.state.get(capturedKey('evt-1'))).toBeNull();
    const search = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
    expect(search.error).toMatch(/^MEMORY_API_CALL/);
    expect(await worker.plugin.definition.onHealth?.()).toMatchObject({ status: 'error', message: expect.stringContaining('MEMORY_API_CALL') });
  });
});

describe('memplane serve answers garbage', () => {
  it('a 200 with a body that is not the route answer is MEMORY_INVALID_RESPONSE, logged, never captured', async () => {
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"items":"not a list","hookId":7}');
    });
    const harness = await startAgainst(loopback, 'mps_garbage-test-token');
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-1' });
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual([expect.stringMatching(/^MEMORY_INVALID_RESPONSE: memplane serve answered control\.getBinding with a body that is not what the route returns/)]);
    expect(await harness.ctx.state.get(capturedKey('evt-1'))).toBeNull();
    const search = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
    expect(search.error).toMatch(/^MEMORY_INVALID_RESPONSE/);
  });

  it('an error page without problem details is MEMORY_API_CALL with its status, and a token the server echoes back is cut out of every error and log', async () => {
    const token = 'mps_echoed-secret-token-value';
    loopback = await startLoopbackServer((request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end(`<html><body>upstream failed for ${String(request.headers.authorization)}</body></html>`);
    });
    const harness = await startAgainst(loopback, token);
    const search = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
    expect(search.error).toMatch(/^MEMORY_API_CALL: memplane serve \(control\.getBinding\) answered 500 without a problem-details body/);
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1' });
    expect(loopback.requests.length).toBeGreaterThan(0);
    expect(loopback.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(JSON.stringify([search, harness.logs])).not.toContain('echoed-secret-token-value');
  });

  it('a failure of the binding read is not taken for a missing binding: nothing is created', async () => {
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ type: 'urn:memplane:problem:MEMORY_CONFIGURATION', title: 'Internal Server Error', status: 500, detail: 'store unavailable', code: 'MEMORY_CONFIGURATION' }));
    });
    const harness = await startAgainst(loopback, 'mps_config-test-token');
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1' });
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual(['MEMORY_CONFIGURATION: store unavailable']);
    expect(loopback.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/companies/acme/control/bindings/default']);
  });

  it('a redirect is not followed with the token', async () => {
    const elsewhere = await startLoopbackServer((_request, response) => response.end('{}'));
    loopback = await startLoopbackServer((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/steal` });
      response.end();
    });
    try {
      const harness = await startAgainst(loopback, 'mps_redirect-test-token');
      const search = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
      expect(search.error).toMatch(/^MEMORY_API_CALL: .*answered with a redirect \(307\)/);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('a proxy that echoes the token into problem details', () => {
  it('never hands it to the model, the tool data, the log or health, written plainly or JSON-escaped', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http');
    const { harness } = worker;
    seedAcme(harness);
    let token = '';
    const serve = harness.ctx.http.fetch.bind(harness.ctx.http);
    // Memory calls and the session are answered by a "proxy" that repeats the Authorization header; control calls reach the server.
    harness.ctx.http.fetch = async (url, init) => {
      const { pathname } = new URL(url);
      if (!pathname.includes('/memory/') && pathname !== '/v1/session') return serve(url, init);
      const authorization = (init?.headers as Record<string, string>).authorization ?? '';
      token = authorization.replace(/^Bearer /, '');
      const escaped = [...authorization].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      const problem = pathname.endsWith('/memory/query')
        ? `{"code":"MEMORY_VALIDATION","detail":"proxy saw ${escaped}","issues":[{"path":"${authorization}","message":"proxy saw ${escaped}"}]}`
        : `{"code":"MEMORY_CONFIGURATION","detail":"proxy saw ${escaped}","title":"${authorization}"}`;
      return new Response(problem, { status: pathname.endsWith('/memory/query') ? 422 : 500, headers: { 'content-type': 'application/problem+json' } });
    };

    const search = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
    expect(search.error).toBe('MEMORY_VALIDATION: Invalid memory.query request: Bearer [token]: proxy saw Bearer [token]');
    await harness.emit('agent.run.started', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1', companyId: 'acme' }, { companyId: 'acme' });
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-1' });
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual(['MEMORY_CONFIGURATION: proxy saw Bearer [token]', 'MEMORY_CONFIGURATION: proxy saw Bearer [token]']);
    const health = await worker.plugin.definition.onHealth?.();
    expect(health).toMatchObject({ status: 'error', message: expect.stringContaining('proxy saw Bearer [token]') });
    expect(token).toMatch(/^mp[ks]_.{16,}/);
    expect(JSON.stringify([search, harness.logs, health])).not.toContain(token.slice(4));
  });
});

describe('a revoked token', () => {
  it('turns every call into a configuration error that says what to do, without the token anywhere', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http');
    const { harness, server } = worker;
    seedAcme(harness);
    const before = await harness.executeTool('memory_note', { text: 'Freeze starts on the 20th.' }, run('acme', 'planner', 'run-1'));
    expect(before.error).toBeUndefined();
    expect(await server?.tokens.revoke(server.tokenId)).toBe(true);

    const after = await harness.executeTool('memory_search', { query: 'freeze' }, run('acme', 'planner', 'run-2'));
    expect(after.error).toMatch(/^MEMORY_CONFIGURATION: memplane serve \(.+\) refused the token \(401: unknown, revoked or expired\)\. Issue a new one/);
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-9' });
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual([expect.stringMatching(/^MEMORY_CONFIGURATION: .*refused the token/)]);
    expect(await harness.ctx.state.get(capturedKey('evt-9'))).toBeNull();
    expect(await worker.plugin.definition.onHealth?.()).toMatchObject({ status: 'error' });
    const issued = (await server?.tokens.list())?.[0];
    expect(issued?.revokedAt).toEqual(expect.any(String));
    expect(JSON.stringify([after, harness.logs])).not.toMatch(/mp[kst]_[A-Za-z0-9_-]{8,}/);
  });
});

describe('the token secret', () => {
  it('a secret Paperclip cannot resolve, or an empty one, fails the company with a configuration error naming service.token and no request leaves the worker', async () => {
    loopback = await startLoopbackServer((_request, response) => response.end('{}'));
    for (const resolve of [async (): Promise<string> => Promise.reject(new Error('secret not found')), async () => '  ']) {
      const harness = createTestHarness({ manifest: workerTestManifest });
      hostCompanyConfig(harness, { acme: { service: { mode: 'http', url: loopback.url, token: serveToken } } });
      const asked: Array<{ companyId?: string; configPath?: string } | undefined> = [];
      harness.ctx.secrets.resolve = async (_reference, options) => {
        asked.push(options);
        return resolve();
      };
      const started = createMemplanePaperclipPlugin();
      // Setup resolves nothing: the token is the company's, read when its first call arrives.
      await started.definition.setup(harness.ctx);
      expect(asked).toEqual([]);
      await expect(started.companyService('acme')).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION', message: expect.stringMatching(/service\.token/) });
      expect(asked).toEqual([{ companyId: 'acme', configPath: 'service.token' }]);
      await started.definition.onShutdown?.();
    }
    expect(loopback.requests).toEqual([]);
  });
});

describe('the server rate limit', () => {
  it('a call over the token limit is MEMORY_RATE_LIMITED with its wait, a capture refused so is not recorded, and goes through once the limit refills', async () => {
    let clock = Date.parse('2026-11-24T10:00:00Z');
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http', { rateLimit: { requestsPerMinute: 60, burst: 15 }, now: () => clock });
    const { harness } = worker;
    seedAcme(harness);
    let limited: { error?: string } | undefined;
    for (let attempt = 0; attempt < 20 && limited === undefined; attempt += 1) {
      const result = await harness.executeTool('memory_search', { query: 'release' }, run('acme', 'planner', 'run-1'));
      if (result.error !== undefined) limited = result;
    }
    expect(limited?.error).toMatch(/^MEMORY_RATE_LIMITED: The token's rate limit is reached; retry in \d+ s\./);
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-1' });
    expect(handlerFailures(harness).map((entry) => entry.meta?.error)).toEqual([expect.stringMatching(/^MEMORY_RATE_LIMITED/)]);
    expect(await harness.ctx.state.get(capturedKey('evt-1'))).toBeNull();

    clock += 60_000;
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1', eventId: 'evt-1' });
    expect(await harness.ctx.state.get(capturedKey('evt-1'))).not.toBeNull();
    expect((await worker.operations('acme')).filter((entry) => entry.operation === 'capture')).toHaveLength(1);
  });
});
