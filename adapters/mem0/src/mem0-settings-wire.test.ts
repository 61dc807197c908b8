import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake({ host: 'https://wire.mem0.test' });
const testServer = setupTestServer(fake.handlers);

describe('the hosted-adapter settings vocabulary on the wire', () => {
  it('sends the extra headers on every request, keeps the SDK auth, and goes through the given fetch at baseURL', async () => {
    const fetched: string[] = [];
    const adapter = createTestAdapter(fake, {
      baseURL: fake.host,
      headers: { 'x-memplane-trace': 'trace-1' },
      fetch: (input, init) => {
        fetched.push(String(input));
        return globalThis.fetch(input, init);
      },
    });
    const scope = { companyId: 'wire-co' };
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'On the wire.' }] });
    await adapter.list({ bindingKey: 'b', scope });
    const calls = testServer.calls;
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.every((call) => call.headers['x-memplane-trace'] === 'trace-1' && call.headers.authorization === `Token ${fake.apiKey}`)).toBe(true);
    expect(fetched).toEqual(calls.map((call) => call.url));
  });
});
