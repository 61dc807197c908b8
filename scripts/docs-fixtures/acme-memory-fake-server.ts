/**
 * Stands in, for the documentation's samples, for the loopback fake of a provider's API that an
 * adapter author writes (with `@memplane/test-server`). Here the "API" is an in-memory store:
 * every adapter made for the same `url` sees the same records, as two clients of one server would.
 */
import { createMemoryAdapterFaults, createMemoryStore, type MemoryStore } from '@memplane/memory';
import type { TestServerSettings } from '@memplane/test-server';
import type { RequestHandler } from 'msw';

const backends = new Map<string, MemoryStore>();

/** The store behind a fake's URL. */
export function backendAt(url: string): MemoryStore {
  let store = backends.get(url);
  if (store === undefined) {
    store = createMemoryStore();
    backends.set(url, store);
  }
  return store;
}

/** The fault switch shared by every fake: the conformance suite's `errors` rules drive it. */
export const faults = createMemoryAdapterFaults();

/** Starts a fake: its URL and fault switch. */
export function startAcmeFake(): { url: string; faults: typeof faults } {
  return { url: `http://127.0.0.1/acme/${backends.size}`, faults };
}

/** The fake API, shaped as the scaffolded adapter's is: its key, its URL and its msw handlers (none here). */
export interface AcmeMemoryFakeApi {
  apiKey: string;
  baseURL: string;
  handlers: RequestHandler[];
}

/** Makes a fake API, as the scaffold's `create<Name>FakeApi()` does. */
export function createAcmeMemoryFakeApi(): AcmeMemoryFakeApi {
  const fake = startAcmeFake();
  return { apiKey: 'test', baseURL: fake.url, handlers: [] };
}

/** Where injected faults answer, as the scaffold's `<name>FaultSettings(api)` says. */
export function acmeMemoryFaultSettings(api: AcmeMemoryFakeApi): TestServerSettings {
  return { faultUrls: [`${api.baseURL}/*`] };
}

/**
 * The shape the scaffold's `setup<Name>FakeServer()` has: the fake API, and a test server whose
 * fault switch the suite drives.
 */
export function setupAcmeMemoryFakeServer(): { api: AcmeMemoryFakeApi; testServer: { faults: typeof faults } } {
  return { api: createAcmeMemoryFakeApi(), testServer: { faults } };
}
