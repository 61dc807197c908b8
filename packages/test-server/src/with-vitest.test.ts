import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { setupTestServer } from './with-vitest';

const baseUrl = 'https://ping.example.test';
const testServer = setupTestServer([http.get(`${baseUrl}/ping`, () => HttpResponse.json({ pong: true }))], {
  faultUrls: [`${baseUrl}/*`],
});

// These tests run in order: the second checks what the first left behind was reset.
describe('setupTestServer', () => {
  it('starts the server before the first test', async () => {
    expect(await (await fetch(`${baseUrl}/ping`)).json()).toEqual({ pong: true });
    testServer.use(http.get(`${baseUrl}/ping`, () => HttpResponse.json({ pong: 'overridden' })));
    expect(await (await fetch(`${baseUrl}/ping`)).json()).toEqual({ pong: 'overridden' });
    testServer.faults.inject({ kind: 'server_error', status: 500 });
    expect((await fetch(`${baseUrl}/ping`)).status).toBe(500);
    expect(testServer.calls).toHaveLength(3);
  });

  it('resets added handlers, calls and faults after each test', async () => {
    expect(testServer.calls).toHaveLength(0);
    expect(testServer.faults.active).toEqual([]);
    expect(await (await fetch(`${baseUrl}/ping`)).json()).toEqual({ pong: true });
  });
});
