/**
 * What kind of background work a queued job is: a queued hook delivery, a poll of a binding's
 * pending extraction jobs, or a pass of operation-log retention.
 */
export type MemoryJobKind = 'hook_delivery' | 'extraction_poll' | 'log_retention';

/** A job to queue. */
export interface MemoryJobRequest {
  /** What the job does; each kind has its own queue. */
  kind: MemoryJobKind;
  /** The JSON payload the handler receives. */
  payload: Record<string, unknown>;
  /** While a job with this key waits, another one with the same key is not queued (enqueue returns undefined). */
  singletonKey?: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
}

/** A job handed to a handler. */
export interface MemoryQueuedJob {
  /** The queue's id of the job. */
  id: string;
  /** Its kind. */
  kind: MemoryJobKind;
  /** The payload it was queued with. */
  payload: Record<string, unknown>;
  /** 0 on the first run, then one more on each retry. */
  attempt: number;
}

/** Runs one job. Throwing makes the job retry, up to the queue's limit. */
export type MemoryJobHandler = (job: MemoryQueuedJob) => Promise<void>;

/**
 * A job queue: where the service puts hook deliveries, extraction polls and retention passes,
 * and where workers take them. The in-process queue (`createInProcessJobQueue`, the default)
 * runs them in the service's own process; `@memplane/service/pg-boss` has a durable one that
 * several worker processes share. Delivery is at least once: a job whose worker died may run
 * again, and the service's handlers are written for that.
 */
export interface MemoryJobQueue {
  /** A short name of the implementation, such as `in-process` or `pg-boss`. */
  readonly kind: string;
  /**
   * How long a job may run before the queue gives it to another worker, in milliseconds, for
   * queues that expire running jobs. The service refuses a queue whose expiry is not above the
   * longest hook delivery.
   */
  readonly jobExpiryMs?: number;
  /** Prepares the queue. Idempotent. */
  start(): Promise<void>;
  /** Queues a job; returns its id, or undefined when a job with the same `singletonKey` already waits. */
  enqueue(request: MemoryJobRequest): Promise<string | undefined>;
  /** Starts taking jobs of the kinds given, `concurrency` at a time per kind (default 1), until `stop`. */
  work(handlers: Partial<Record<MemoryJobKind, MemoryJobHandler>>, options?: { concurrency?: number }): Promise<void>;
  /** Stops taking jobs, waits for the running ones, and releases connections. */
  stop(): Promise<void>;
  /**
   * Resolves once no job is due or running in this process (delayed jobs not yet due are not
   * waited for). Queues whose jobs run elsewhere may leave it out.
   */
  whenIdle?(): Promise<void>;
}
