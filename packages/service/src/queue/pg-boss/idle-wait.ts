/** Waits of idle worker loops that a stop (or a local enqueue) can cut short. */
export interface IdleWait {
  /** Resolves after `milliseconds`, or at once when {@link IdleWait.wakeAll} is called meanwhile. */
  wait(milliseconds: number): Promise<void>;
  /** Ends every wait in progress. */
  wakeAll(): void;
}

/** Creates the waits of one queue. */
export function createIdleWait(): IdleWait {
  const waiting = new Set<() => void>();
  return {
    wait(milliseconds) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, milliseconds);
        waiting.add(done);
      });
    },
    wakeAll() {
      for (const done of [...waiting]) done();
    },
  };
}
