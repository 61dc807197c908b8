/**
 * Runs `task` for every item with at most `concurrency` tasks in flight, and settles when all
 * are done. After a failure no new task starts, and the first failure is thrown once every
 * started task has settled, so no call is left running behind the caller's back.
 */
export async function mapWithConcurrency<Item>(
  items: ReadonlyArray<Item>,
  concurrency: number,
  task: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  let stopped = false;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (!stopped && next < items.length) {
      const item = items[next] as Item;
      next += 1;
      try {
        await task(item);
      } catch (error) {
        stopped = true;
        throw error;
      }
    }
  });
  const outcomes = await Promise.allSettled(workers);
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}
