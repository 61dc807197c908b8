import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A worker process started by a test, and the messages it sent. */
export interface TestWorkerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves when the worker says it takes jobs; rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Asks the worker to stop gracefully. */
  stop(): Promise<number | string>;
}

const tsconfig = fileURLToPath(new URL('./worker-tsconfig.json', import.meta.url));

/**
 * Starts `script` (a TypeScript file beside this one) as a real Node process with tsx, the
 * workspace packages read from source, and an IPC channel: the worker sends `{ type: 'ready' }`
 * once it takes jobs, and stops gracefully on `{ type: 'stop' }`.
 */
export function startWorkerProcess(script: string, name: string, environment: Record<string, string>): TestWorkerProcess {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...environment, TSX_TSCONFIG_PATH: tsconfig, MEMPLANE_WORKER_NAME: name },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'ready') resolve();
    });
    void exited.then((code) => reject(new TypeError(`Worker ${name} exited (${code}) before it was ready.`)));
  });
  // A worker that never becomes ready is reported by the test awaiting `ready`.
  ready.catch(() => undefined);
  return {
    name,
    child,
    ready,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.send({ type: 'stop' });
      return exited;
    },
  };
}
