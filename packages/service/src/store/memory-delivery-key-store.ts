/**
 * What the store knows about one queued hook delivery's write, by its idempotency key:
 * - `new`: no attempt started before this one;
 * - `started`: an earlier attempt started and never finished (its worker died or hung), so
 *   the provider may or may not hold the write;
 * - `written`: an earlier attempt wrote, and its operation and records are known.
 */
export interface MemoryDeliveryClaim {
  state: 'new' | 'started' | 'written';
  /** The operation of the attempt that wrote (state `written`). */
  operationId?: string;
  /** The records that attempt wrote (state `written`). */
  recordIds?: string[];
}

/** The idempotency keys of queued hook deliveries (`memory_delivery_keys`). */
export interface MemoryDeliveryKeyStore {
  /** Marks an attempt started under the key, and returns what earlier attempts left. One statement. */
  claimDelivery(companyId: string, deliveryKey: string, at: string): Promise<MemoryDeliveryClaim>;
  /** Records that the write under the key is done, before the job is acknowledged. */
  completeDelivery(companyId: string, deliveryKey: string, written: { operationId: string; recordIds: string[] }, at: string): Promise<void>;
  /**
   * Deletes the company's keys whose last attempt is older than `before`, and returns how many.
   * Run by the operation-log prune with its cut, so a key lives as long as the log of its writes.
   */
  pruneDeliveryKeys(companyId: string, before: string): Promise<number>;
}
