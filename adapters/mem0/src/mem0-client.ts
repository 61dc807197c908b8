import { MemoryConfigurationError } from '@memplane/core';
import type { MemoryClient } from 'mem0ai';

type Mem0Module = typeof import('mem0ai');

/** The request options the SDK hands to its one request method. */
interface Mem0FetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  [option: string]: unknown;
}

/** What the response of a failed call looked like, kept on the SDK error's `debugInfo`. */
export interface Mem0FailedResponse {
  /** The HTTP status. */
  status: number;
  /** The URL that was called. */
  url: string;
  /** The response headers, names in lower case. */
  headers: Record<string, string>;
  /** The raw `Retry-After` header, which the SDK documents on `debugInfo` but never fills. */
  retryAfter?: string;
}

/** Where the signal of the attempt in progress waits for the SDK's request method. */
const pendingSignal = Symbol('memplane.mem0.pendingSignal');

type ClientWithSignal = MemoryClient & { [pendingSignal]?: AbortSignal };

/**
 * Runs one SDK call so that its HTTP request is aborted when `signal` aborts. The SDK's
 * methods take no signal, so it waits on the client and the request method takes it. Every
 * method the adapter uses reaches the request method synchronously, before any await, so
 * the signal is set and consumed within one synchronous run and cannot reach another call.
 * `getProfile` awaits the client's identity ping first: its request is not aborted, though
 * the call still times out. (An AsyncLocalStorage would carry the signal across awaits, but
 * on Node 20 it makes every promise of the host process pay for async hooks.)
 */
export function sendWithSignal<Value>(client: MemoryClient, signal: AbortSignal, send: (client: MemoryClient) => Promise<Value>): Promise<Value> {
  const holder = client as ClientWithSignal;
  holder[pendingSignal] = signal;
  try {
    return send(client);
  } finally {
    holder[pendingSignal] = undefined;
  }
}

/**
 * The SDK client with two things the SDK lacks, added at the one method every SDK call
 * goes through (`_fetchRawJson`, public in the SDK's types):
 * - the abort signal of the current attempt, so a timeout really ends the request;
 * - the status and headers of a failed response on the SDK error's `debugInfo`, so
 *   `Retry-After` is not lost.
 * The request itself is the SDK's: same URL, method, body and SDK-built headers
 * (`Authorization: Token …` comes from the SDK's `headers`), plus the `Mem0-User-ID`
 * header the SDK adds. Errors are the SDK's own classes, from its own factory.
 */
function defineAbortableClient(sdk: Mem0Module, transport: Mem0Transport): new (options: { apiKey: string; host: string }) => MemoryClient {
  const send = transport.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const extraHeaders = transport.headers ?? {};
  return class Mem0AbortableClient extends sdk.MemoryClient {
    override async _fetchRawJson(url: string, options: Mem0FetchOptions): Promise<unknown> {
      // The constructor's ping runs before any subclass field exists; a symbol property read is safe then.
      const holder = this as ClientWithSignal;
      const signal = holder[pendingSignal];
      holder[pendingSignal] = undefined;
      const response = await send(url, {
        ...options,
        ...(signal === undefined ? {} : { signal }),
        // The caller's extra headers never include Authorization (the settings refuse it).
        headers: { ...options.headers, ...extraHeaders, 'Mem0-User-ID': this.telemetryId },
      } as RequestInit);
      if (!response.ok) {
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name.toLowerCase()] = value;
        });
        const failure: Mem0FailedResponse = { status: response.status, url, headers };
        if (headers['retry-after'] !== undefined) failure.retryAfter = headers['retry-after'];
        throw sdk.createExceptionFromResponse(response.status, await response.text(), { debugInfo: { ...failure } });
      }
      return response.json();
    }
  };
}

/** How requests leave the adapter: the settings' `fetch` and extra `headers`. */
export interface Mem0Transport {
  /** The fetch of every request; default `globalThis.fetch`, looked up per call. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Extra headers of every request. */
  headers?: Record<string, string>;
}

let loading: Promise<Mem0Module> | undefined;

/**
 * Loads `mem0ai` once per process, with its telemetry switched off. The SDK reads
 * `MEM0_TELEMETRY` when its module loads and otherwise sends PostHog events and writes
 * `~/.mem0/config.json`; the variable is set first, then the module is imported.
 */
export function loadMem0Sdk(): Promise<Mem0Module> {
  if (loading === undefined) {
    process.env.MEM0_TELEMETRY = 'false';
    loading = import('mem0ai').catch((cause: unknown) => {
      loading = undefined;
      throw new MemoryConfigurationError({
        message: 'The mem0 adapter needs the mem0ai package, its peer dependency: npm install mem0ai.',
        cause,
      });
    });
  }
  return loading;
}

/**
 * Creates the SDK client on first use, never before: its constructor pings `/v1/ping/`
 * at once, so an adapter that is created but not used makes no request.
 */
export function createLazyMem0Client(settings: { apiKey: string; host: string } & Mem0Transport): () => Promise<MemoryClient> {
  let client: Promise<MemoryClient> | undefined;
  const { fetch: send, headers, ...options } = settings;
  const transport: Mem0Transport = { ...(send === undefined ? {} : { fetch: send }), ...(headers === undefined ? {} : { headers }) };
  return () => {
    client ??= loadMem0Sdk().then((sdk) => new (defineAbortableClient(sdk, transport))(options));
    return client;
  };
}
