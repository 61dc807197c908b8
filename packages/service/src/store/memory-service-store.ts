import type { MemoryBinding, MemoryBindingTarget, MemoryBindingTargetType, ResolvedMemoryBinding } from '../bindings/memory-binding';
import type {
  MemoryActivityEntry,
  MemoryExtractionJobEntry,
  MemoryExtractionJobFilter,
  MemoryHookDeliveryEntry,
  MemoryHookDeliveryFilter,
  MemoryOperationCount,
  MemoryOperationEntry,
  MemoryOperationFilter,
  MemoryStorePage,
  MemoryStorePageRequest,
} from './memory-service-records';
import type { MemoryAccountingStore } from './memory-accounting-store';
import type { MemoryRecordRegistryStore } from './memory-record-registry-store';
import type { MemoryDeliveryKeyStore } from './memory-delivery-key-store';
import type { MemoryTokenStore } from './memory-token-store';

/**
 * Where the service keeps its control-plane and audit state: bindings, targets, the activity
 * log, the operation log, hook deliveries and extraction jobs. Every method is async so a
 * networked store (Postgres) fits behind the same interface, and every log is written in
 * batches (`append*` take arrays). `describeMemoryServiceStoreSuite` from
 * `@memplane/service/testing` is the contract every implementation must pass.
 *
 * Rules every implementation keeps:
 * - every read and write is limited to the `companyId` it is given;
 * - binding and target changes are written in one transaction with their activity entries;
 * - `insertBinding` refuses a key used in the company with `MemoryValidationError` (field `key`);
 * - `updateBinding` refuses a stale `expectedRevision` with `MemoryConflictError`;
 * - pages are newest first, by a position that only grows, and never skip or repeat an entry
 *   that exists for the whole walk;
 * - cost, finance, metrics, usage and retention follow {@link MemoryAccountingStore};
 * - the registry of written handles follows {@link MemoryRecordRegistryStore};
 * - the host's bearer tokens follow {@link MemoryTokenStore}: read from the database on every call.
 */
export interface MemoryServiceStore extends MemoryAccountingStore, MemoryRecordRegistryStore, MemoryDeliveryKeyStore, MemoryTokenStore {
  /** A short name of the implementation, such as `sqlite`. */
  readonly kind: string;
  /** Brings the schema to the latest version. Idempotent; the service calls it once at start. */
  migrate(): Promise<void>;
  /** Releases the connection. Further calls fail. */
  close(): Promise<void>;

  /** Creates a binding and writes its activity entries. */
  insertBinding(binding: MemoryBinding, activity: MemoryActivityEntry[]): Promise<void>;
  /** Replaces a binding if its revision is still `expectedRevision`, and writes the activity entries. */
  updateBinding(binding: MemoryBinding, expectedRevision: number, activity: MemoryActivityEntry[]): Promise<void>;
  /** Deletes a binding and every target pointing at it; false when it did not exist. */
  deleteBinding(companyId: string, bindingId: string, activity: MemoryActivityEntry[]): Promise<boolean>;
  /** One binding by key, or undefined. */
  getBindingByKey(companyId: string, key: string): Promise<MemoryBinding | undefined>;
  /** One binding by id, or undefined. */
  getBindingById(companyId: string, bindingId: string): Promise<MemoryBinding | undefined>;
  /** Every binding of the company, by key. */
  listBindings(companyId: string): Promise<MemoryBinding[]>;

  /** Sets (creates or replaces) a target and writes the activity entries. */
  putTarget(target: MemoryBindingTarget, activity: MemoryActivityEntry[]): Promise<void>;
  /** Removes a target; false when it did not exist (then no activity is written). */
  deleteTarget(
    companyId: string,
    targetType: MemoryBindingTargetType,
    targetId: string,
    activity: MemoryActivityEntry[],
  ): Promise<boolean>;
  /** One target, or undefined. */
  getTarget(companyId: string, targetType: MemoryBindingTargetType, targetId: string): Promise<MemoryBindingTarget | undefined>;
  /** Every target of the company. */
  listTargets(companyId: string): Promise<MemoryBindingTarget[]>;
  /**
   * Resolution in one read: the enabled binding of the agent's target when `agentId` is given
   * and has one, else the enabled binding of the company target, else undefined.
   */
  resolveBinding(companyId: string, agentId: string | undefined): Promise<ResolvedMemoryBinding | undefined>;

  /**
   * Appends activity entries that go with no binding or target change (a refused binding, a
   * prune, a provider registration), all or none.
   */
  appendActivity(entries: MemoryActivityEntry[]): Promise<void>;
  /** The activity log of the company, newest first. */
  listActivity(companyId: string, page: MemoryStorePageRequest): Promise<MemoryStorePage<MemoryActivityEntry>>;

  /** Appends operation log entries, all or none. */
  appendOperations(entries: MemoryOperationEntry[]): Promise<void>;
  /** The operations matching the filter, newest first. */
  listOperations(filter: MemoryOperationFilter, page: MemoryStorePageRequest): Promise<MemoryStorePage<MemoryOperationEntry>>;
  /** One operation, or undefined. */
  getOperation(companyId: string, operationId: string): Promise<MemoryOperationEntry | undefined>;
  /** Operation counts per binding and operation type within the filter's company and date range. */
  countOperations(filter: Pick<MemoryOperationFilter, 'companyId' | 'from' | 'to'>): Promise<MemoryOperationCount[]>;

  /** Appends hook delivery entries, all or none. */
  appendHookDeliveries(entries: MemoryHookDeliveryEntry[]): Promise<void>;
  /** The deliveries matching the filter, newest first. */
  listHookDeliveries(
    filter: MemoryHookDeliveryFilter,
    page: MemoryStorePageRequest,
  ): Promise<MemoryStorePage<MemoryHookDeliveryEntry>>;

  /**
   * Inserts jobs, or updates the ones whose (binding, provider job id) exists: status, error,
   * timestamps, retry count and `updatedAt` change; id, operation, source, scope and
   * `createdAt` of the first insert stay.
   */
  upsertExtractionJobs(entries: MemoryExtractionJobEntry[]): Promise<void>;
  /** One job by the service's id, or undefined. */
  getExtractionJob(companyId: string, jobId: string): Promise<MemoryExtractionJobEntry | undefined>;
  /** The jobs matching the filter, newest first (by first sight). */
  listExtractionJobs(
    filter: MemoryExtractionJobFilter,
    page: MemoryStorePageRequest,
  ): Promise<MemoryStorePage<MemoryExtractionJobEntry>>;
}
