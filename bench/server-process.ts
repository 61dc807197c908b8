import { performance } from 'node:perf_hooks';
import { serveMemplane, type ServedMemplane } from '@memplane/server';

/**
 * The server of `npm run bench server`, in a process of its own as `memplane serve` runs: the
 * bench process is the clients. Started by the bench with `fork`; it answers messages:
 * `start` (serve a data folder, issue the tokens), `timings` (the server time of each request
 * since the last ask) and `close`.
 *
 * Server time is measured on the Node HTTP server from the moment a request arrives (the first
 * `request` listener) to the moment its response is handed to the socket (`finish`).
 */

/** What the bench sends. */
export type ServerProcessRequest =
  | { type: 'start'; dataDirectory: string; databaseUrl?: string; databaseSchema?: string }
  | { type: 'timings' }
  | { type: 'close' };

/** What the process answers. */
export type ServerProcessReply =
  | { type: 'started'; url: string; agentToken: string; adminToken: string }
  | { type: 'timings'; timings: Array<{ path: string; ms: number }> }
  | { type: 'failed'; message: string };

let served: ServedMemplane | undefined;
let timings: Array<{ path: string; ms: number }> = [];
const send = (reply: ServerProcessReply) => process.send?.(reply);

process.on('message', (message: ServerProcessRequest) => {
  void (async () => {
    try {
      if (message.type === 'start') {
        served = await serveMemplane({
          dataDirectory: message.dataDirectory,
          ...(message.databaseUrl === undefined ? {} : { databaseUrl: message.databaseUrl }),
          ...(message.databaseSchema === undefined ? {} : { databaseSchema: message.databaseSchema }),
          port: 0,
          // The bench measures the server, not the per-token limiter's refusals.
          rateLimit: false,
          inspectorDirectory: false,
        });
        served.http.server.prependListener('request', (request, response) => {
          const started = performance.now();
          response.once('finish', () => timings.push({ path: request.url ?? '', ms: performance.now() - started }));
        });
        const agent = await served.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' });
        const admin = await served.tokens.issue({ role: 'admin', companyId: 'acme', userId: 'operator' });
        send({ type: 'started', url: served.http.url, agentToken: agent.token, adminToken: admin.token });
      } else if (message.type === 'timings') {
        send({ type: 'timings', timings });
        timings = [];
      } else {
        await served?.close();
        process.exit(0);
      }
    } catch (error) {
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
