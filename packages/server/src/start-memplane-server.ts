import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { MemoryConfigurationError } from '@memplane/core';
import { createMemplaneServer, type MemplaneServer, type MemplaneServerSettings } from './create-memplane-server';

/** Settings of {@link startMemplaneServer}: the server's, and where to listen. */
export interface StartMemplaneServerSettings extends MemplaneServerSettings {
  /** The address to bind. Default `127.0.0.1`: only this machine can connect. */
  host?: string;
  /** The port; 0 picks a free one. Default 4680. */
  port?: number;
}

/** A listening server. */
export interface RunningMemplaneServer extends MemplaneServer {
  /** The base URL, such as `http://127.0.0.1:4680`. */
  url: string;
  /** The bound address and port. */
  address: { host: string; port: number };
  /** The Node HTTP server. */
  server: ServerType;
  /** Stops accepting connections and waits for open ones to finish. Does not close the service. */
  close(): Promise<void>;
}

/** Starts the HTTP API on Node and resolves once it listens. */
export async function startMemplaneServer(settings: StartMemplaneServerSettings): Promise<RunningMemplaneServer> {
  const built = createMemplaneServer(settings);
  const host = settings.host ?? '127.0.0.1';
  const server = await new Promise<ServerType>((resolveListening, reject) => {
    const started = serve({ fetch: built.app.fetch, hostname: host, port: settings.port ?? 4680 }, () => resolveListening(started));
    started.once('error', (cause) => reject(new MemoryConfigurationError({ message: `Cannot listen on ${host}:${settings.port ?? 4680}`, cause })));
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    ...built,
    url: `http://${shownHost}:${address.port}`,
    address: { host: address.address, port: address.port },
    server,
    close: () =>
      new Promise<void>((resolveClosed, reject) => {
        server.close((error) => (error === undefined ? resolveClosed() : reject(error)));
        // Keep-alive connections would hold close() open until they time out.
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}
