import { normalizeScope, type MemoryScope } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import type { createRecordOperations } from '../runtime/record-operations';
import type { ServiceInternals } from '../service/service-internals';

/** The metadata field a queued capture carries its idempotency key in, so the provider's records can be found by it. */
export const deliveryKeyMetadataField = 'memplaneDeliveryKey';

/** The idempotency key of a queued delivery's write: the hook id it was queued with, and the binding. */
export function deliveryKeyOf(hookId: string, binding: MemoryBinding): string {
  return `${hookId}:${binding.id}`;
}

/**
 * What an earlier run of the same queued delivery left, before the provider is called again.
 * - Written (the store says so): nothing to do.
 * - Started and never finished (its worker died, maybe after the provider wrote): the provider
 *   is asked for records carrying the key (a `list` with a metadata filter, where the binding
 *   has `metadataFilter`); found ones are recorded as the write, so the capture is not repeated.
 *   A provider that cannot filter by metadata cannot tell, and the capture runs again (at least
 *   once, as SECURITY.md says).
 * Returns the operation of the earlier write, or undefined to capture now.
 */
export async function earlierWrite(
  internals: ServiceInternals,
  records: ReturnType<typeof createRecordOperations>,
  binding: MemoryBinding,
  scope: MemoryScope,
  deliveryKey: string,
): Promise<{ operationId?: string } | undefined> {
  const claim = await internals.store.claimDelivery(binding.companyId, deliveryKey, internals.now());
  if (claim.state === 'written') return claim.operationId === undefined ? {} : { operationId: claim.operationId };
  if (claim.state === 'new' || binding.capabilities.metadataFilter !== true) return undefined;
  const { companyId: _company, ...requested } = normalizeScope(scope);
  const page = await records.list({ bindingKey: binding.key, scope: requested, metadataFilter: { [deliveryKeyMetadataField]: deliveryKey }, limit: 100 });
  if (page.items.length === 0) return undefined;
  await internals.store.completeDelivery(
    binding.companyId,
    deliveryKey,
    { operationId: page.operationId, recordIds: page.items.map((item) => item.handle.providerRecordId) },
    internals.now(),
  );
  return { operationId: page.operationId };
}
