import type { MemoryRecordHandle, MemoryRecordInput, MemoryRecordWriteResult } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import { MemoryQuotaExceededError } from '../errors/memory-quota-exceeded-error';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryBindingUsage, MemoryCountedRecord } from '../store/memory-accounting-records';

/** The bytes a record counts for: its text, its summary and its metadata as JSON, in UTF-8. */
export function recordBytes(record: Pick<MemoryRecordInput, 'text' | 'summary' | 'metadata'>): number {
  return (
    Buffer.byteLength(record.text ?? '', 'utf8') +
    Buffer.byteLength(record.summary ?? '', 'utf8') +
    (record.metadata === undefined ? 0 : Buffer.byteLength(JSON.stringify(record.metadata), 'utf8'))
  );
}

/** A reservation against a binding's usage, settled or released once the provider answered. */
export interface QuotaReservation {
  /** What was reserved. */
  readonly reserved: MemoryBindingUsage;
  /** Counts the records the provider accepted and releases the rest. */
  settle(records: MemoryCountedRecord[]): Promise<void>;
  /** Releases everything (the write failed). */
  release(): Promise<void>;
}

/**
 * Reserves what a write adds against the binding's caps, atomically in the store, before the
 * provider is called: a write that would pass a cap throws `MemoryQuotaExceededError` and the
 * provider never sees it. Bindings without caps are counted too, so a cap set later starts from
 * what they already hold.
 */
export async function reserveQuota(
  internals: ServiceInternals,
  binding: MemoryBinding,
  delta: MemoryBindingUsage,
  field: string,
): Promise<QuotaReservation> {
  const caps = binding.quota ?? {};
  // Without a cap there is nothing to refuse: no reservation, and what the write added is counted in a batch.
  if (caps.maxRecords === undefined && caps.maxBytes === undefined) return uncappedReservation(internals, binding);
  // Writes queued for counting are in the usage before a cap is checked against it.
  await internals.usageSettlements.flush();
  const { reserved, usage } = await internals.store.reserveBindingUsage(binding.companyId, binding.id, delta, caps);
  if (!reserved) {
    const overRecords = delta.records > 0 && caps.maxRecords !== undefined && usage.records + delta.records > caps.maxRecords;
    throw new MemoryQuotaExceededError({
      bindingKey: binding.key,
      field,
      ...(overRecords
        ? { quota: 'records', limit: caps.maxRecords!, used: usage.records, requested: delta.records }
        : { quota: 'bytes', limit: caps.maxBytes ?? 0, used: usage.bytes, requested: delta.bytes }),
    });
  }
  return reservationOf(internals, binding, delta);
}

const nothing: MemoryBindingUsage = { records: 0, bytes: 0 };

/** The reservation of a binding without caps: nothing reserved, what the provider accepted queued for counting. */
function uncappedReservation(internals: ServiceInternals, binding: MemoryBinding): QuotaReservation {
  return {
    reserved: nothing,
    async settle(records) {
      internals.usageSettlements.add(binding.companyId, binding.id, records);
    },
    async release() {},
  };
}

/** What was reserved, settled or released once. */
function reservationOf(internals: ServiceInternals, binding: MemoryBinding, delta: MemoryBindingUsage): QuotaReservation {
  let open = true;
  return {
    reserved: delta,
    async settle(records) {
      if (!open) return;
      open = false;
      await internals.store.settleBindingUsage(binding.companyId, binding.id, delta, records);
    },
    async release() {
      if (!open) return;
      open = false;
      await internals.store.releaseBindingUsage(binding.companyId, binding.id, delta);
    },
  };
}

/** The records of a batch write the provider accepted, with their bytes: handles skip the failed indexes, in order. */
export function acceptedRecords(records: MemoryRecordInput[], result: MemoryRecordWriteResult): MemoryCountedRecord[] {
  const failed = new Set((result.failures ?? []).map((failure) => failure.index));
  const accepted = records.filter((_, index) => !failed.has(index));
  const handles: MemoryRecordHandle[] = result.records ?? [];
  return handles.map((handle, index) => ({ providerRecordId: handle.providerRecordId, bytes: recordBytes(accepted[index] ?? { text: '' }) }));
}

/**
 * Runs a provider write under a quota reservation: released if the provider throws, settled
 * with what it accepted otherwise. Bookkeeping that fails after the provider wrote is reported,
 * never turned into a failed write.
 */
export async function underQuota<Result>(
  internals: ServiceInternals,
  reservation: QuotaReservation,
  write: () => Promise<Result>,
  accepted: (result: Result) => Array<{ providerRecordId: string; bytes: number }>,
): Promise<Result> {
  let result: Result;
  try {
    result = await write();
  } catch (error) {
    await reservation.release().catch((releaseError: unknown) => internals.reportBackgroundError(releaseError, 'releaseBindingUsage'));
    throw error;
  }
  await reservation.settle(accepted(result)).catch((settleError: unknown) => internals.reportBackgroundError(settleError, 'settleBindingUsage'));
  return result;
}
