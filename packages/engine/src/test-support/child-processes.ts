import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A child process started by a test, with its IPC messages. */
export interface TestChildProcess {
  readonly child: ChildProcess;
  /** Resolves with the first message whose `type` is `type`; rejects if the process exits first. */
  message<T extends { type: string }>(type: T['type']): Promise<T>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
}

const tsconfig = fileURLToPath(new URL('./worker-tsconfig.json', import.meta.url));

/**
 * Starts a TypeScript file as a real Node process with tsx, the workspace packages read from
 * source and an IPC channel, so a test can kill it with SIGKILL at a moment it reported.
 */
export function startChildProcess(scriptUrl: URL, environment: Record<string, string>): TestChildProcess {
  const child = fork(fileURLToPath(scriptUrl), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...environment, TSX_TSCONFIG_PATH: tsconfig },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const received: Array<{ type: string }> = [];
  const waiters: Array<{ type: string; resolve: (message: never) => void }> = [];
  child.on('message', (message: { type: string }) => {
    received.push(message);
    for (const waiter of waiters.filter((entry) => entry.type === message.type)) waiter.resolve(message as never);
  });
  return {
    child,
    exited,
    message<T extends { type: string }>(type: T['type']) {
      const already = received.find((message) => message.type === type);
      if (already !== undefined) return Promise.resolve(already as T);
      return new Promise<T>((resolve, reject) => {
        waiters.push({ type, resolve: resolve as (message: never) => void });
        void exited.then((code) => reject(new TypeError(`The child exited (${code}) before it sent "${type}".`)));
      });
    },
  };
}
