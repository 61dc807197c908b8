import type { MemoryRecordHandle, MemoryScope, MemoryWarning } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import type { ServiceInternals } from '../service/service-internals';
import { agentMayModify } from './agent-identity';
import type { OperationInput } from './run-operation';
import { guardSnippet, placeHandles, type PlacementContext } from './result-scope-guard';

/** The handles of a forget or correct, sorted into the ones the caller may change and the refused ones. */
export interface OwnedHandles {
  /** The handles the caller may change, with the scope each was placed under. */
  allowed: MemoryRecordHandle[];
  /** The handles refused: another company's, another agent's, another adapter's, or not placeable. */
  refused: MemoryRecordHandle[];
}

/**
 * Which handles the caller may forget or correct. The provider never sees a refused one. A
 * handle registered for the caller's company is decided by its registration (an agent only
 * changes its own records). Any other handle is read first through the provider with the
 * caller's scope, and passes only when the record it returns is placed in that scope (and, for
 * an agent, is the agent's own). A handle registered for another company is refused unread.
 */
export async function ownedHandles(
  input: Pick<OperationInput, 'adapter' | 'call' | 'placement'>,
  actorAgentId: string | undefined,
  handles: MemoryRecordHandle[],
): Promise<OwnedHandles> {
  const placed = await placeHandles(input.placement, input.adapter.key, handles);
  const owned: OwnedHandles = { allowed: [], refused: [...placed.foreign] };
  for (const handle of handles) {
    const scope = placed.own.get(handle.providerRecordId);
    if (scope === undefined || handle.providerKey !== input.adapter.key) continue;
    if (agentMayModify(actorAgentId, scope.agentId)) owned.allowed.push(handle);
    else owned.refused.push(handle);
  }
  // Modifying needs more than reading: an agent may change only records it can show are its own.
  const strict: PlacementContext = { ...input.placement, reach: 'own' };
  for (const handle of placed.unknown) {
    const warnings: MemoryWarning[] = [];
    const { snippet } = await guardSnippet(
      await input.call('get', () => input.adapter.get(handle, input.placement.scope)),
      strict,
      warnings,
    );
    const mine = snippet !== null && (actorAgentId === undefined || snippet.scope?.agentId === actorAgentId);
    (mine ? owned.allowed : owned.refused).push(handle);
  }
  return owned;
}

/** What a foreign or refused handle says in the result: nothing about whose it is. */
export function refusedWarnings(refused: MemoryRecordHandle[]): MemoryWarning[] {
  return refused.map((handle) => ({
    type: 'scope_violation' as const,
    providerRecordId: handle.providerRecordId,
    details: 'not found in the caller\'s scope; the provider was not asked',
  }));
}

/**
 * Registers handles written through the service, so their results can be placed later. A
 * registration that fails is reported, never turned into a failed write: the record then has to
 * place itself by its own scope, or it is dropped (fail closed).
 */
export async function registerHandles(
  internals: ServiceInternals,
  binding: MemoryBinding,
  scope: MemoryScope,
  handles: ReadonlyArray<MemoryRecordHandle>,
): Promise<void> {
  if (handles.length === 0) return;
  const registeredAt = internals.now();
  try {
    await internals.store.registerRecords(
      handles.map((handle) => ({
        companyId: binding.companyId,
        bindingId: binding.id,
        providerId: binding.providerId,
        providerRecordId: handle.providerRecordId,
        scope,
        registeredAt,
      })),
    );
  } catch (error) {
    internals.reportBackgroundError(error, 'registerRecords');
  }
}

/** Removes the registrations of forgotten records. */
export async function unregisterHandles(internals: ServiceInternals, binding: MemoryBinding, ids: string[]): Promise<void> {
  await internals.store.unregisterRecords(binding.companyId, binding.id, ids).catch((error: unknown) => internals.reportBackgroundError(error, 'unregisterRecords'));
}

