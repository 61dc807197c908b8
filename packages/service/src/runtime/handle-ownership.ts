import type { MemoryRecordHandle, MemoryScope, MemoryWarning } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import type { ServiceInternals } from '../service/service-internals';
import { agentMayModify } from './agent-identity';
import type { OperationInput } from './run-operation';
import { guardSnippet, placeHandles, type PlacementContext } from './result-scope-guard';

/** The handles of a forget or correct, sorted into the ones the caller may change, the missing ones and the refused ones. */
export interface OwnedHandles {
  /** The handles the caller may change. */
  allowed: MemoryRecordHandle[];
  /**
   * The handles that name no record the caller's company can show: never written, already
   * forgotten, another adapter's, or another company's (which must read exactly as missing).
   */
  missing: MemoryRecordHandle[];
  /** The handles of records of the caller's company the caller may not change: another agent's, or company-shared ones for an agent. */
  refused: MemoryRecordHandle[];
}

/**
 * Which handles the caller may forget or correct. The provider never sees a missing or refused
 * one. A handle registered for the caller's company is decided by its registration (an agent
 * only changes its own records). Any other handle is read first through the provider with the
 * caller's scope: it passes only when the record it returns is placed in that scope (and, for an
 * agent, is the agent's own); a record placed in the company under another agent, or shared, is
 * refused; anything else (nothing returned, a record that cannot be placed in the company) is
 * missing. A handle registered for another company, or issued by another adapter, is missing
 * unread.
 */
export async function ownedHandles(
  input: Pick<OperationInput, 'adapter' | 'call' | 'placement'>,
  actorAgentId: string | undefined,
  handles: MemoryRecordHandle[],
): Promise<OwnedHandles> {
  const placed = await placeHandles(input.placement, input.adapter.key, handles);
  const owned: OwnedHandles = { allowed: [], missing: [...placed.foreign], refused: [] };
  for (const handle of handles) {
    const scope = placed.own.get(handle.providerRecordId);
    if (scope === undefined || handle.providerKey !== input.adapter.key) continue;
    if (agentMayModify(actorAgentId, scope.agentId)) owned.allowed.push(handle);
    else owned.refused.push(handle);
  }
  // The record is placed as a company-wide reader would see it: whether it exists in the company
  // decides missing or refused, and modifying needs more than that: an agent changes only records
  // it can show are its own.
  const company: PlacementContext = { ...input.placement, reach: 'company' };
  for (const handle of placed.unknown) {
    const warnings: MemoryWarning[] = [];
    const { snippet } = await guardSnippet(
      await input.call('get', () => input.adapter.get(handle, input.placement.scope)),
      company,
      warnings,
    );
    if (snippet === null) owned.missing.push(handle);
    else if (actorAgentId === undefined || snippet.scope?.agentId === actorAgentId) owned.allowed.push(handle);
    else owned.refused.push(handle);
  }
  return owned;
}

/**
 * What the skipped handles of a forget say: `not_found` for a missing one, worded the same
 * whatever made it missing (another company's record reads exactly as one that never existed),
 * and `scope_violation` for a record of the company the caller may not change.
 */
export function skippedWarnings(skipped: Pick<OwnedHandles, 'missing' | 'refused'>): MemoryWarning[] {
  return [...notFoundWarnings(skipped.missing), ...skipped.refused.map((handle) => ({
    type: 'scope_violation' as const,
    providerRecordId: handle.providerRecordId,
    details: 'not the caller\'s to change; nothing was done',
  }))];
}

/** The `not_found` warnings of handles that name no record the caller can see: nothing about whose they are. */
export function notFoundWarnings(missing: MemoryRecordHandle[]): MemoryWarning[] {
  return missing.map((handle) => ({ type: 'not_found' as const, providerRecordId: handle.providerRecordId, details: 'no such record in the caller\'s company; nothing was done' }));
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

