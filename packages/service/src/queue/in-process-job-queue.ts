import { randomUUID } from 'node:crypto';
import { MemoryConfigurationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import type { MemoryJobHandler, MemoryJobKind, MemoryJobQueue, MemoryQueuedJob } from './memory-job-queue';

/** Settings of {@link createInProcessJobQueue}. */
export interface InProcessJobQueueSettings {
  /** Retries of a job whose handler threw. Default 3. */
  retryLimit?: number;
  /** Milliseconds before a retry. Default 1000. */
  retryDelayMs?: number;
  /** Told about a job that failed for the last time. */
  onError?: (error: unknown, job: MemoryQueuedJob) => void;
}

const settingsSchema = z.strictObject({
  retryLimit: z.number().int().min(0).max(100).optional(),
  retryDelayMs: z.number().int().min(0).max(3_600_000).optional(),
  onError: z.custom<(error: unknown, job: MemoryQueuedJob) => void>((value) => typeof value === 'function', 'must be a function').optional(),
});

interface WaitingJob extends MemoryQueuedJob {
  singletonKey?: string;
  due: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * The queue of a single-process service (the SQLite default): jobs run in this process, in the
 * background of the calls that queued them. Like the durable queue, it keeps one waiting and
 * one running job per singleton key at most. Not durable: jobs still waiting when the process
 * ends are lost (a hook delivery then shows as never recorded, an extraction poll is queued
 * again by the next capture). Delayed jobs wait on timers that never keep the process alive.
 */
export function createInProcessJobQueue(settings: InProcessJobQueueSettings = {}): MemoryJobQueue {
  const valid = parseInput(settingsSchema, settings, 'in-process queue settings', 'settings');
  const retryLimit = valid.retryLimit ?? 3;
  const retryDelayMs = valid.retryDelayMs ?? 1000;
  const waiting: WaitingJob[] = [];
  const handlers = new Map<MemoryJobKind, MemoryJobHandler>();
  const running = new Set<Promise<void>>();
  // Jobs with a singleton key never run two at a time, as a durable queue keeps one active per key.
  const runningKeys = new Set<string>();
  const runnable = (job: WaitingJob) => job.due && handlers.has(job.kind) && (job.singletonKey === undefined || !runningKeys.has(`${job.kind}\u0000${job.singletonKey}`));
  let concurrency = 0;
  let state: 'open' | 'stopping' | 'stopped' = 'open';
  let idleWaiters: Array<() => void> = [];

  const settleIdle = () => {
    if (running.size > 0 || waiting.some(runnable)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  function pump(): void {
    while (state === 'open' && running.size < concurrency) {
      const index = waiting.findIndex(runnable);
      if (index < 0) break;
      const [job] = waiting.splice(index, 1);
      const handler = handlers.get(job!.kind)!;
      const { singletonKey, due: _due, timer: _timer, ...queued } = job!;
      const key = singletonKey === undefined ? undefined : `${queued.kind}\u0000${singletonKey}`;
      if (key !== undefined) runningKeys.add(key);
      const run: Promise<void> = handler(queued)
        .catch((error: unknown) => {
          if (queued.attempt < retryLimit && state === 'open') add({ ...job!, attempt: queued.attempt + 1 }, retryDelayMs);
          else valid.onError?.(error, queued);
        })
        .finally(() => {
          running.delete(run);
          if (key !== undefined) runningKeys.delete(key);
          pump();
          settleIdle();
        });
      running.add(run);
    }
    settleIdle();
  }

  function add(job: WaitingJob, delayMs: number): void {
    waiting.push(job);
    if (delayMs > 0) {
      job.due = false;
      job.timer = setTimeout(() => {
        job.due = true;
        pump();
      }, delayMs);
      job.timer.unref();
    } else {
      job.due = true;
    }
    // A job queued from inside a handler starts after the current one yields.
    queueMicrotask(pump);
  }

  return {
    kind: 'in-process',

    async start() {
      if (state !== 'open') throw new MemoryConfigurationError({ message: 'A stopped in-process queue cannot be started again; create a new one.' });
    },

    async enqueue(request) {
      if (state !== 'open') throw new MemoryConfigurationError({ message: 'The in-process queue is stopped.' });
      if (request.singletonKey !== undefined && waiting.some((job) => job.kind === request.kind && job.singletonKey === request.singletonKey)) {
        return undefined;
      }
      const id = randomUUID();
      add(
        {
          id,
          kind: request.kind,
          payload: structuredClone(request.payload),
          attempt: 0,
          due: true,
          ...(request.singletonKey === undefined ? {} : { singletonKey: request.singletonKey }),
        },
        request.delayMs ?? 0,
      );
      return id;
    },

    async work(workHandlers, options = {}) {
      if (state !== 'open') throw new MemoryConfigurationError({ message: 'The in-process queue is stopped.' });
      for (const [kind, handler] of Object.entries(workHandlers) as Array<[MemoryJobKind, MemoryJobHandler | undefined]>) {
        if (handler !== undefined) handlers.set(kind, handler);
      }
      concurrency = Math.max(concurrency, Math.max(1, Math.min(64, Math.floor(options.concurrency ?? 1))));
      pump();
    },

    async stop() {
      if (state !== 'open') return;
      state = 'stopping';
      for (const job of waiting) clearTimeout(job.timer);
      waiting.length = 0;
      await Promise.all([...running]);
      state = 'stopped';
      settleIdle();
    },

    whenIdle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
  };
}
