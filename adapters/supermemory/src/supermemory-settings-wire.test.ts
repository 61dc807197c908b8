import { describe, expect, it } from 'vitest';
import { callsAfterNow, setupSupermemoryFake } from './testing/supermemory-test-setup';

const environment = setupSupermemoryFake();

describe('the hosted-adapter settings vocabulary on the wire', () => {
  it('sends the extra headers on every request and goes through the given fetch', async () => {
    const fetched: string[] = [];
    const adapter = environment.createAdapter({
      headers: { 'x-memplane-trace': 'trace-1' },
      fetch: (input, init) => {
        fetched.push(String(input instanceof Request ? input.url : input));
        return globalThis.fetch(input, init);
      },
    });
    const calls = callsAfterNow(environment.testServer);
    const scope = { companyId: 'wire-co' };
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'On the wire.' }] });
    await adapter.list({ bindingKey: 'b', scope });
    expect(calls().length).toBeGreaterThanOrEqual(2);
    expect(calls().every((call) => call.headers['x-memplane-trace'] === 'trace-1' && call.headers.authorization?.startsWith('Bearer '))).toBe(true);
    expect(fetched.length).toBe(calls().length);
  });
});
