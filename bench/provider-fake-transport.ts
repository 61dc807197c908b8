import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';
import { replayingFetch } from './replayed-responses';

/** A provider fake served over real HTTP on the loopback interface. */
export interface LoopbackFakeServer {
  /** Where clients send requests, such as `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function answer(handlers: RequestHandler[], origin: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const body = await readBody(incoming);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = incoming.method ?? 'GET';
  const request = new Request(new URL(incoming.url ?? '/', origin), {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
  const response = await getResponse(handlers, request);
  if (response === undefined) {
    outgoing.writeHead(501, { 'content-type': 'text/plain' }).end(`No fake handler for ${method} ${request.url}`);
    return;
  }
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  const responseBody = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, { ...responseHeaders, 'content-length': String(responseBody.length) }).end(responseBody);
}

/**
 * Serves msw handlers (a provider's stateful fake) over HTTP on 127.0.0.1, so that SDKs use
 * their real transport (undici's fetch or node:http) end to end, as against a real provider.
 * Interception by msw instead costs per request, and more for requests that carry an
 * abort signal, which would charge a test-harness cost to whichever variant passes one.
 * Request URLs are rewritten to `origin`, the host the handlers match.
 */
export async function startLoopbackFakeServer(handlers: RequestHandler[], origin: string): Promise<LoopbackFakeServer> {
  const server = createServer((incoming, outgoing) => {
    answer(handlers, origin, incoming, outgoing).catch((error: unknown) => {
      outgoing.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How the SDKs reach a provider fake in a benchmark. */
export type FakeTransport = 'loopback HTTP' | 'msw interception' | 'replayed responses';

/**
 * Serves a provider fake over the given transport and returns the URL clients use: the
 * loopback server's, or for msw the origin the handlers match, which msw intercepts.
 */
export async function serveProviderFake(transport: FakeTransport, handlers: RequestHandler[], origin: string): Promise<LoopbackFakeServer> {
  if (transport === 'loopback HTTP') return startLoopbackFakeServer(handlers, origin);
  if (transport === 'replayed responses') {
    // Clients that read the global fetch (mem0ai per call, supermemory when it is built) replay; AWS clients add replayAwsResponses.
    const served = await startLoopbackFakeServer(handlers, origin);
    const realFetch = globalThis.fetch;
    globalThis.fetch = replayingFetch(realFetch);
    return {
      url: served.url,
      close: async () => {
        globalThis.fetch = realFetch;
        await served.close();
      },
    };
  }
  const { setupServer } = await import('msw/node');
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return {
    url: origin,
    close: async () => {
      server.close();
    },
  };
}

/** What the two transports mean, for the notes under each table. */
export const transportNotes: Record<FakeTransport, string> = {
  'loopback HTTP':
    'The fake (the same msw handlers the tests use) is served by a node:http server on 127.0.0.1 in the same process, so both variants go through the SDK\'s real transport, as against the real provider.',
  'msw interception':
    'msw intercepts the requests in the process. Interception adds work per request, and more for a request that carries an abort signal (each copy of the request msw makes follows the signal), so an adapter that aborts its requests on timeout pays a harness cost here that the loopback table does not charge.',
  'replayed responses':
    'Each distinct request went once to the fake over loopback HTTP; after that both variants get the recorded bytes back at once (`bench/replayed-responses.ts`), so there is no socket, HTTP parser or fake in the loop, only the SDK\'s own request building and response parsing and the adapter\'s work.',
};
