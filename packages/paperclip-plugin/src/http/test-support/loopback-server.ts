import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP server on 127.0.0.1 that answers as a test tells it (a broken or hostile memplane serve). */
export interface LoopbackServer {
  url: string;
  /** Every request it received: method, path and headers. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port; `answer` writes each response (or never does, to hang). */
export async function startLoopbackServer(answer: (request: { method: string; path: string; headers: IncomingMessage['headers']; body: string }, response: ServerResponse) => void): Promise<LoopbackServer> {
  const requests: LoopbackServer['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      answer(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
