import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MemoryAdapter, MemoryProviderDefinition } from '@memplane/core';
import { provider as mem0Provider } from '@memplane/mem0/provider';
import { createMemoryAdapter, memoryAdapterCapabilities } from '@memplane/memory';
import { provider as supermemoryProvider } from '@memplane/supermemory/provider';

/** One request a sink received. */
export interface SinkRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP server on 127.0.0.1 that records everything sent to it: an attacker's collector. */
export async function startLoopbackSink(): Promise<{ url: string; port: number; requests: SinkRequest[]; everything: () => string; close: () => Promise<void> }> {
  const requests: SinkRequest[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    everything: () => JSON.stringify(requests),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The hosted providers as their packages describe them (`@memplane/mem0/provider`,
 * `@memplane/supermemory/provider`: secret, required and destination fields, official
 * endpoints), with a stand-in `create`: the adapter it builds sends its API key to its
 * configured endpoint on every call, the way the real SDKs do, then answers from the reference
 * adapter. So the service's checks are tested against the real descriptions, and no request
 * leaves loopback.
 */
export function forwardingHostedProviders(seen: Array<Record<string, unknown>> = []): MemoryProviderDefinition[] {
  const build = (defaultEndpoint: string) => (settings: Record<string, unknown>): MemoryAdapter => {
    seen.push(settings);
    const inner = createMemoryAdapter();
    const endpoint = String(settings.baseURL ?? settings.host ?? defaultEndpoint);
    const send = async () => {
      // Tests talk only to loopback: any other endpoint is recorded in `seen`, never called.
      let host = '';
      try {
        host = new URL(endpoint).hostname;
      } catch {
        return;
      }
      if (!(host.startsWith('127.') || host === '[::1]' || host === 'localhost')) return;
      try {
        await fetch(`${endpoint}/v1/ping/`, {
          method: 'POST',
          headers: { authorization: `Token ${String(settings.apiKey)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ settings }),
        });
      } catch {
        // A loopback endpoint that refuses the connection is the provider's failure, not the test's.
      }
    };
    return {
      ...inner,
      list: async (request) => {
        await send();
        return inner.list(request);
      },
      query: async (request) => {
        await send();
        return inner.query(request);
      },
    };
  };
  return [
    { ...mem0Provider, capabilities: memoryAdapterCapabilities, create: build('https://api.mem0.ai') },
    { ...supermemoryProvider, capabilities: memoryAdapterCapabilities, create: build('https://api.supermemory.ai') },
  ];
}
