import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerProcessReply, ServerProcessRequest } from './server-process';

/** A `memplane serve` process started by the bench, and the tokens it issued. */
export interface BenchServer {
  url: string;
  agentToken: string;
  adminToken: string;
  /** The server time of each request since the last call, in arrival order. */
  timings(): Promise<Array<{ path: string; ms: number }>>;
  close(): Promise<void>;
}

function ask<Reply extends ServerProcessReply['type']>(child: ChildProcess, request: ServerProcessRequest, reply: Reply): Promise<Extract<ServerProcessReply, { type: Reply }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerProcessReply) => {
      if (message.type === 'failed') reject(new Error(`server process: ${message.message}`));
      else if (message.type === reply) resolve(message as Extract<ServerProcessReply, { type: Reply }>);
      else return;
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}

/** Forks bench/server-process.ts on a data folder (or Postgres) and waits until it listens. */
export async function startBenchServer(options: { dataDirectory: string; databaseUrl?: string; databaseSchema?: string }): Promise<BenchServer> {
  const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`server process exited with ${code}`))));
  const started = await Promise.race([ask(child, { type: 'start', ...options }, 'started'), exited]);
  exited.catch(() => undefined);
  return {
    url: started.url,
    agentToken: started.agentToken,
    adminToken: started.adminToken,
    timings: async () => (await ask(child, { type: 'timings' }, 'timings')).timings,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      }),
  };
}
