import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
const scope = { companyId: 'acme', agentId: 'planner' };

describe('mem0 telemetry and the lazy client', () => {
  it('creates no client and makes no request until the first operation', () => {
    createTestAdapter(fake);
    expect(testServer.calls).toEqual([]);
  });

  it('switches mem0 telemetry off before loading the SDK, so only the mem0 API is called', async () => {
    const adapter = createTestAdapter(fake);
    const [handle] = (await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'The deploy window is Tuesday.' }] })).records ?? [];
    await adapter.query({ bindingKey: 'b', scope, query: 'deploy window' });
    await adapter.list({ bindingKey: 'b', scope });
    if (handle !== undefined) await adapter.get(handle, scope);
    await adapter.capture({ bindingKey: 'b', scope, source: { kind: 'manual_note', companyId: 'acme' }, payload: { text: 'Prefers tea.' } });

    expect(process.env.MEM0_TELEMETRY).toBe('false');
    const hosts = new Set(testServer.calls.map((call) => new URL(call.url).host));
    expect([...hosts]).toEqual([new URL(fake.host).host]);
    expect(testServer.calls.some((call) => call.url.includes('posthog'))).toBe(false);
  });

  it('sends the SDK-built auth and client headers on every call', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.list({ bindingKey: 'b', scope });
    const listCall = testServer.calls.find((call) => call.pathname === '/v3/memories/');
    expect(listCall?.headers.authorization).toBe(`Token ${fake.apiKey}`);
    expect(listCall?.headers['x-mem0-client']).toMatch(/^mem0-js\//);
    expect(listCall?.headers['mem0-user-id']).toBe('developer@example.com');
  });
});
