import type { MemoryService } from '@memplane/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMemplaneMcpHttpServer, type MemplaneMcpHttpOptions, type MemplaneMcpHttpServer } from './mcp-http-server';
import { createTwoCompanyService } from './test-support/mcp-test-service';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
};
const grants: Record<string, { companyId: string; agentId: string; tokenId: string }> = {
  'acme-token': { companyId: 'acme', agentId: 'planner', tokenId: 'tok_acme' },
  'globex-token': { companyId: 'globex', agentId: 'scout', tokenId: 'tok_globex' },
};
const headers = (token: string, sessionId?: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
});

describe('sessions of the HTTP transport, per token', () => {
  let service: MemoryService;
  const servers: MemplaneMcpHttpServer[] = [];
  let clock = 0;

  async function serve(options: Partial<MemplaneMcpHttpOptions> = {}): Promise<string> {
    const http = await startMemplaneMcpHttpServer({ service, verifyToken: async (token) => grants[token], port: 0, now: () => clock, ...options });
    servers.push(http);
    return http.url;
  }
  /** An `initialize` without a session: what opens one. */
  async function open(url: string, token: string) {
    const response = await fetch(url, { method: 'POST', headers: headers(token), body: JSON.stringify(initialize) });
    return { status: response.status, sessionId: response.headers.get('mcp-session-id') ?? undefined, retryAfter: response.headers.get('retry-after'), body: await response.text() };
  }
  /** A ping inside a session. */
  async function ping(url: string, token: string, sessionId: string): Promise<number> {
    const response = await fetch(url, { method: 'POST', headers: headers(token, sessionId), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    await response.text();
    return response.status;
  }

  beforeEach(async () => {
    clock = 0;
    service = await createTwoCompanyService('memory');
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((http) => http.close()));
    await service.close();
  });

  it('gives one token at most 16 sessions by default, even opened all at once, and still serves another token', async () => {
    // The token check holds every request until all 17 are in, so they all reach the cap check
    // before any session has opened.
    let arrived = 0;
    let allIn!: () => void;
    const gate = new Promise<void>((resolveGate) => (allIn = resolveGate));
    const url = await serve({
      verifyToken: async (token) => {
        arrived += 1;
        if (arrived === 17) allIn();
        if (arrived <= 17) await gate;
        return grants[token];
      },
    });
    const attempts = await Promise.all(Array.from({ length: 17 }, () => open(url, 'acme-token')));
    expect(attempts.filter((attempt) => attempt.status === 200)).toHaveLength(16);
    const refused = attempts.filter((attempt) => attempt.status !== 200);
    expect(refused.map((attempt) => attempt.status)).toEqual([429]);
    expect(JSON.parse(refused[0]!.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Too many open sessions for this token') } });
    expect(new Set(attempts.map((attempt) => attempt.sessionId).filter(Boolean)).size).toBe(16);

    const again = await open(url, 'acme-token');
    expect(again.status).toBe(429);
    // Every session started now, so the wait is the whole idle timeout (30 minutes).
    expect(again.retryAfter).toBe(String(30 * 60));
    expect((await open(url, 'globex-token')).status).toBe(200);
  });

  it('frees the slot of a session idle for sessionIdleTimeoutMs, and forgets its id', async () => {
    const url = await serve({ maxSessionsPerToken: 2, sessionIdleTimeoutMs: 1000 });
    const first = await open(url, 'acme-token');
    clock = 400;
    const second = await open(url, 'acme-token');
    clock = 999;
    const early = await open(url, 'acme-token');
    expect(early.status).toBe(429);
    expect(early.retryAfter).toBe('1');
    clock = 1000;
    expect((await open(url, 'acme-token')).status).toBe(200);
    expect(await ping(url, 'acme-token', first.sessionId!)).toBe(404);
    expect(await ping(url, 'acme-token', second.sessionId!)).toBe(200);
  });

  it('keeps a session that is used, and one whose event stream is open, past the idle timeout', async () => {
    const url = await serve({ maxSessionsPerToken: 2, sessionIdleTimeoutMs: 1000 });
    const used = await open(url, 'acme-token');
    const streaming = await open(url, 'acme-token');
    const stream = new AbortController();
    const listening = await fetch(url, { method: 'GET', headers: { ...headers('acme-token', streaming.sessionId), accept: 'text/event-stream' }, signal: stream.signal });
    expect(listening.status).toBe(200);
    try {
      for (let at = 900; at <= 9000; at += 900) {
        clock = at;
        expect(await ping(url, 'acme-token', used.sessionId!)).toBe(200);
      }
      // Neither session expired (the streaming one is still being answered), so the token stays at its cap.
      expect((await open(url, 'acme-token')).status).toBe(429);
      expect(await ping(url, 'acme-token', streaming.sessionId!)).toBe(200);
    } finally {
      stream.abort();
    }
  });

  it('refuses another token on a session, without counting it as use', async () => {
    const url = await serve({ maxSessionsPerToken: 1, sessionIdleTimeoutMs: 1000 });
    const own = await open(url, 'acme-token');
    clock = 900;
    expect(await ping(url, 'globex-token', own.sessionId!)).toBe(403);
    clock = 1000;
    expect(await ping(url, 'acme-token', own.sessionId!)).toBe(404);
  });

  it('refuses limits that are not positive whole numbers', async () => {
    for (const limits of [{ maxSessionsPerToken: 0 }, { sessionIdleTimeoutMs: -1 }, { maxSessions: 1.5 }, { maxSessionsPerToken: Number.NaN }]) {
      await expect(serve(limits)).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    }
  });
});
