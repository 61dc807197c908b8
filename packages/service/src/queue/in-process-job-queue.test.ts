import { describe, expect, it } from 'vitest';
import { createInProcessJobQueue } from './in-process-job-queue';
import type { MemoryQueuedJob } from './memory-job-queue';

describe('in-process job queue', () => {
  it('runs each job once, at most `concurrency` at a time, and settles idle after the last one', async () => {
    const queue = createInProcessJobQueue();
    let running = 0;
    let mostAtOnce = 0;
    const done: unknown[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    await queue.work(
      {
        async hook_delivery(job) {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          // The first jobs hold until every job is queued, so the limit is what keeps the rest waiting.
          await gate;
          done.push(job.payload.n);
          running -= 1;
        },
      },
      { concurrency: 2 },
    );
    for (let n = 0; n < 6; n += 1) await queue.enqueue({ kind: 'hook_delivery', payload: { n } });
    expect(running).toBe(2);
    open();
    await queue.whenIdle!();
    expect([...done].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostAtOnce).toBe(2);
    await queue.stop();
  });

  it('retries a job whose handler throws, then reports it once it runs out of retries', async () => {
    const failures: Array<{ error: unknown; job: MemoryQueuedJob }> = [];
    const queue = createInProcessJobQueue({ retryLimit: 2, retryDelayMs: 0, onError: (error, job) => failures.push({ error, job }) });
    const attempts: number[] = [];
    await queue.work({
      async extraction_poll(job) {
        attempts.push(job.attempt);
        if (job.payload.flaky === true && job.attempt === 0) throw new TypeError('once');
        if (job.payload.broken === true) throw new TypeError('always');
      },
    });
    await queue.enqueue({ kind: 'extraction_poll', payload: { flaky: true } });
    await queue.whenIdle!();
    expect(attempts).toEqual([0, 1]);
    attempts.length = 0;
    await queue.enqueue({ kind: 'extraction_poll', payload: { broken: true } });
    await queue.whenIdle!();
    expect(attempts).toEqual([0, 1, 2]);
    expect(failures).toEqual([{ error: new TypeError('always'), job: expect.objectContaining({ attempt: 2, payload: { broken: true } }) }]);
    await queue.stop();
  });

  it('keeps one waiting job per singleton key, and leaves delayed jobs waiting', async () => {
    const queue = createInProcessJobQueue();
    expect(await queue.enqueue({ kind: 'extraction_poll', payload: {}, singletonKey: 'acme:b1', delayMs: 60_000 })).toEqual(expect.any(String));
    expect(await queue.enqueue({ kind: 'extraction_poll', payload: {}, singletonKey: 'acme:b1' })).toBeUndefined();
    expect(await queue.enqueue({ kind: 'extraction_poll', payload: {}, singletonKey: 'acme:b2', delayMs: 60_000 })).toEqual(expect.any(String));
    const ran: unknown[] = [];
    await queue.work({ extraction_poll: async (job) => void ran.push(job.payload) });
    await queue.whenIdle!();
    expect(ran).toEqual([]);
    await queue.stop();
    await expect(queue.enqueue({ kind: 'extraction_poll', payload: {} })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
  });

  it('waits for running jobs on stop, and refuses bad settings naming the field', async () => {
    const queue = createInProcessJobQueue();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finished = false;
    await queue.work({
      async log_retention() {
        started();
        await released;
        finished = true;
      },
    });
    await queue.enqueue({ kind: 'log_retention', payload: {} });
    await running;
    const stopping = queue.stop();
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(() => createInProcessJobQueue({ retryLimit: -1 })).toThrow(expect.objectContaining({ field: 'settings.retryLimit' }) as Error);
  });
});
