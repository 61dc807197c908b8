/** Stands in, for the documentation's samples, for an author's loopback fake of the provider's API. */
import { startAcmeFake as startFake } from './acme-memory-fake-server.js';

/** Starts the fake: its URL, its fault switch, and a drain for its (here empty) queues. */
export function startAcmeFake(): ReturnType<typeof startFake> & { drainQueues(): Promise<void> } {
  return { ...startFake(), drainQueues: async () => {} };
}
