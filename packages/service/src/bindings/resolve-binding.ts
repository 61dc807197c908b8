import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import type { MemoryServiceStore } from '../store/memory-service-store';
import type { ResolvedMemoryBinding } from './memory-binding';

/**
 * Resolution: a binding named by key (it must exist and be enabled); else the agent's
 * override; else the company default; else `MemoryBindingNotFoundError`. Disabled bindings
 * are skipped, so disabling an override falls back to the company default.
 */
export async function resolveBinding(
  store: MemoryServiceStore,
  companyId: string,
  agentId: string | undefined,
  bindingKey?: string,
): Promise<ResolvedMemoryBinding> {
  if (bindingKey !== undefined) {
    const binding = await store.getBindingByKey(companyId, bindingKey);
    if (binding === undefined || !binding.enabled) throw new MemoryBindingNotFoundError({ companyId, bindingKey });
    return { binding, resolvedBy: 'key' };
  }
  const resolved = await store.resolveBinding(companyId, agentId);
  if (resolved === undefined) {
    throw new MemoryBindingNotFoundError({ companyId, ...(agentId === undefined ? {} : { agentId }) });
  }
  return resolved;
}
