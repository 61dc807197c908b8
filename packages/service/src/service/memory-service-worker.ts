import type { MemoryHooks } from '../hooks/memory-hooks';
import { createBackgroundHandlers, type QueueableCaptureHooks } from '../queue/background-work';
import type { ServiceInternals } from './service-internals';

/** A running worker of a service. */
export interface MemoryServiceWorker {
  /** Stops taking jobs and waits for the running ones (this stops the service's queue). */
  stop(): Promise<void>;
}

/** Options of `service.startWorker`. */
export interface MemoryServiceWorkerOptions {
  /** Jobs of each kind run at once by this worker. Default 2. */
  concurrency?: number;
}

/**
 * Starts taking jobs from the service's queue: queued hook deliveries, extraction polls and,
 * with a retention window, retention passes, which every worker queues once at start and then
 * every `operationLog.retentionIntervalMs` (one waiting pass at most, whatever the number of
 * workers).
 */
export async function startServiceWorker(
  internals: ServiceInternals,
  hooks: MemoryHooks,
  options: MemoryServiceWorkerOptions = {},
): Promise<MemoryServiceWorker> {
  const handlers = createBackgroundHandlers(internals, hooks as unknown as QueueableCaptureHooks);
  await internals.queue.work(handlers, { concurrency: options.concurrency ?? 2 });
  let timer: NodeJS.Timeout | undefined;
  if (internals.retention.operationLogDays !== undefined) {
    const queueRetention = () =>
      internals.queue
        .enqueue({ kind: 'log_retention', payload: {}, singletonKey: 'log-retention' })
        .catch((error: unknown) => internals.reportBackgroundError(error, 'scheduleRetention'));
    void queueRetention();
    timer = setInterval(queueRetention, internals.retention.intervalMs);
    // The schedule alone never keeps a process alive.
    timer.unref();
  }
  return {
    async stop() {
      clearInterval(timer);
      await internals.queue.stop();
    },
  };
}
