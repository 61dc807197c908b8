import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryService } from '@memplane/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMemplaneMcpHttpServer, type MemplaneMcpHttpServer } from './mcp-http-server';
import { createTwoCompanyService, textOf } from './test-support/mcp-test-service';
import { openTestTokens, type TestTokens } from './test-support/mcp-test-tokens';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST with exactly these headers (Host included), as a browser or an attacker would send it. */
function rawPost(url: string, headers: Record<string, string>, body = initialize): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the Streamable HTTP transport', () => {
  let folder: string;
  let service: MemoryService;
  let tokens: TestTokens;
  let http: MemplaneMcpHttpServer;
  let acmeToken: string;
  let globexToken: string;
  const clients: Client[] = [];

  async function connect(token: string | undefined, name = 'http-test-client'): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-http-'));
    service = await createTwoCompanyService('memory');
    tokens = await openTestTokens();
    acmeToken = (await tokens.issue({ companyId: 'acme', agentId: 'planner' }, { label: 'laptop' })).token;
    globexToken = (await tokens.issue({ companyId: 'globex', agentId: 'scout' })).token;
    http = await startMemplaneMcpHttpServer({ service, verifyToken: tokens.verifyToken, port: 0 });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await http.close();
    await service.close();
    await tokens.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('binds to loopback and serves a session for a valid token, as the token agent', async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(acmeToken);
    const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'Acme ships on Mondays.' } });
    expect(noted.isError).toBeFalsy();
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when does acme ship' } });
    expect(textOf(found)).toContain('Mondays');
    const log = await service.explorer({ actor: { kind: 'company', companyId: 'acme' } }).listOperations({});
    expect(log.items.map((entry) => `${entry.actor.kind}:${entry.actor.id}:${entry.operation}`)).toEqual(['agent:planner:query', 'agent:planner:record_upsert']);
  });

  it('refuses a request without a token, or with an unknown one, with 401', async () => {
    await expect(connect(undefined)).rejects.toThrow(/401|Unauthorized/);
    const missing = await rawPost(http.url, {});
    expect(missing.status).toBe(401);
    expect(String(missing.headers['www-authenticate'])).toContain('invalid_token');
    const unknown = await rawPost(http.url, { authorization: `Bearer mpt_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
  });

  it('gives another company token only that company memory, and refuses it on the first company session', async () => {
    const acme = await connect(acmeToken);
    await acme.callTool({ name: 'memory_note', arguments: { text: 'Acme secret roadmap: robots.' } });
    const globex = await connect(globexToken);
    const found = await globex.callTool({ name: 'memory_search', arguments: { query: 'secret roadmap robots' } });
    expect(JSON.stringify(found)).not.toContain('robots.');
    const listed = await globex.callTool({ name: 'memory_list', arguments: {} });
    expect(JSON.stringify(listed)).not.toContain('robots.');

    // The acme session id with the globex token: refused before the session sees the request.
    const sessionId = (acme.transport as StreamableHTTPClientTransport).sessionId!;
    const hijack = await rawPost(
      http.url,
      { authorization: `Bearer ${globexToken}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_list', arguments: {} } }),
    );
    expect(hijack.status).toBe(403);
    expect(hijack.body).not.toContain('robots');
  });

  it('refuses a revoked token at once, also inside an open session', async () => {
    const issued = await tokens.issue({ companyId: 'acme', agentId: 'builder' });
    const client = await connect(issued.token);
    expect((await client.callTool({ name: 'memory_list', arguments: {} })).isError).toBeFalsy();
    expect(await tokens.tokens.revoke(issued.record.id)).toBe(true);
    await expect(client.callTool({ name: 'memory_list', arguments: {} })).rejects.toThrow(/401|Unauthorized/);
  });

  it('refuses a DNS-rebinding request: a foreign Host or a foreign Origin gets 403', async () => {
    const port = new URL(http.url).port;
    const rebound = await rawPost(http.url, { host: `evil.example:${port}`, authorization: `Bearer ${acmeToken}` });
    expect(rebound.status).toBe(403);
    const page = await rawPost(http.url, { origin: 'http://evil.example', authorization: `Bearer ${acmeToken}` });
    expect(page.status).toBe(403);
    const lookalike = await rawPost(http.url, { origin: 'http://localhost.evil.example', authorization: `Bearer ${acmeToken}` });
    expect(lookalike.status).toBe(403);
    // A page served from this machine passes the origin check and still needs the token.
    const local = await rawPost(http.url, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(401);
    const localWithToken = await rawPost(http.url, { origin: 'http://localhost:5173', authorization: `Bearer ${acmeToken}` });
    expect(localWithToken.status).toBe(200);
  });

  it('refuses an operator or company-admin token with 401: a session acts as one agent and nothing wider', async () => {
    for (const grant of [{ role: 'operator', operatorId: 'ops' }, { role: 'operator', operatorId: 'relay', actAsAgents: true }, { role: 'admin', companyId: 'acme' }] as const) {
      const { token } = await tokens.tokens.issue(grant);
      const answer = await rawPost(http.url, { authorization: `Bearer ${token}` });
      expect(answer.status, grant.role).toBe(401);
      expect(answer.body).not.toContain('mcp-session-id');
    }
  });

  it('binds the token project: notes record it, and a read of another project fails closed', async () => {
    const { token } = await tokens.issue({ companyId: 'acme', agentId: 'planner', projectId: 'billing' });
    const client = await connect(token);
    await client.callTool({ name: 'memory_note', arguments: { text: 'Invoices are due in 30 days.' } });
    const own = await client.callTool({ name: 'memory_search', arguments: { query: 'invoices due', projectId: 'billing' } });
    expect(own.structuredContent).toMatchObject({ results: [{ text: 'Invoices are due in 30 days.' }] });
    const other = await client.callTool({ name: 'memory_search', arguments: { query: 'invoices due', projectId: 'design' } });
    expect(textOf(other)).toContain('MEMORY_SCOPE_VIOLATION');
    const stored = await service.runtime({ actor: { kind: 'company', companyId: 'acme' } }).list({ scope: { projectId: 'billing' } });
    expect(stored.items.map((item) => item.text)).toEqual(['Invoices are due in 30 days.']);
  });

  it('prepares a company again when its preparation failed, instead of refusing it for good', async () => {
    let attempts = 0;
    const flaky = await startMemplaneMcpHttpServer({
      service,
      verifyToken: tokens.verifyToken,
      prepareCompany: async (companyId) => {
        attempts += 1;
        if (attempts === 1) throw new Error('store busy');
        const control = service.control({ actor: { kind: 'system', component: 'test' }, companyId });
        await control.createBinding({ key: 'default', providerId: 'memory' });
        await control.setTarget({ targetType: 'company' }, 'default');
      },
      port: 0,
    });
    const client = new Client({ name: 'flaky', version: '1' });
    try {
      // A company the service does not know yet: its first note prepares it.
      const fresh = (await tokens.issue({ companyId: 'initech', agentId: 'milton' })).token;
      await client.connect(new StreamableHTTPClientTransport(new URL(flaky.url), { requestInit: { headers: { authorization: `Bearer ${fresh}` } } }));
      await expect(client.callTool({ name: 'memory_note', arguments: { text: 'The stapler is red.' } })).rejects.toThrow();
      const second = await client.callTool({ name: 'memory_note', arguments: { text: 'The stapler is red.' } });
      expect(second.isError, textOf(second)).toBeFalsy();
      expect(attempts).toBe(2);
    } finally {
      await client.close();
      await flaky.close();
    }
  });

  it('refuses sessions past maxSessions with 503, and frees a closed one', async () => {
    const small = await startMemplaneMcpHttpServer({ service, verifyToken: tokens.verifyToken, port: 0, maxSessions: 1 });
    try {
      const client = new Client({ name: 'one', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(small.url), { requestInit: { headers: { authorization: `Bearer ${acmeToken}` } } });
      await client.connect(transport);
      expect((await rawPost(small.url, { authorization: `Bearer ${acmeToken}` })).status).toBe(503);
      await transport.terminateSession();
      await client.close();
      expect((await rawPost(small.url, { authorization: `Bearer ${acmeToken}` })).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('refuses to bind a non-loopback address without naming the allowed hosts', async () => {
    await expect(startMemplaneMcpHttpServer({ service, verifyToken: async () => undefined, host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      message: expect.stringContaining('allowedHosts'),
    });
  });
});
