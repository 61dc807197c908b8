/**
 * Stands in, for the documentation's samples, for the loopback fake of a provider's API that an
 * adapter author writes (with `@memplane/test-server`). Here the "API" is an in-memory store:
 * every adapter made for the same `url` sees the same records, as two clients of one server would.
 */
import { createMemoryAdapterFaults, createMemoryStore, type MemoryStore } from '@memplane/memory';

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

/**
 * The shape the adapter template's fake has: the API's key and URL, and a test server whose
 * fault switch the suite drives.
 */
export function setupAcmeMemoryFakeServer(): { api: { apiKey: string; baseURL: string }; testServer: { faults: typeof faults } } {
  const fake = startAcmeFake();
  return { api: { apiKey: 'test', baseURL: fake.url }, testServer: { faults: fake.faults } };
}
