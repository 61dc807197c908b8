import { MemoryError } from '@memplane/core';
import type { MemoryBinding, MemoryBindingHookSettings, MemoryCallContext, MemoryControlPlane } from '@memplane/service';

/** One binding as a host's config file or settings page declares it. */
export interface DeclaredMemoryBinding {
  key: string;
  providerId: string;
  config?: Record<string, unknown> | undefined;
  enabled?: boolean | undefined;
  hooks?: Partial<MemoryBindingHookSettings> | undefined;
}

/** One company's declared bindings, default and agent overrides. */
export interface DeclaredCompanyBindings {
  bindings: DeclaredMemoryBinding[];
  default?: string | undefined;
  agents?: Record<string, string> | undefined;
}

/** What applying bindings needs of a service: its control plane (a `MemoryService`, or a client of one over HTTP). */
type BindingControlHost = {
  control(context: MemoryCallContext): Pick<MemoryControlPlane, 'getBinding' | 'listBindings' | 'createBinding' | 'updateBinding' | 'setTarget'>;
};

const systemIn = (component: string, companyId: string) => ({ actor: { kind: 'system', component }, companyId }) as const;
const sameJson = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * Makes a company's bindings and targets what its host declares, through the control plane (so
 * every change is checked by the operator's rules and written in the company's activity log, as
 * the system `component`). A declared binding is created, or updated when its provider, config,
 * flag or hooks changed; bindings not declared are left alone.
 */
export async function applyDeclaredCompanyBindings(service: BindingControlHost, component: string, companyId: string, company: DeclaredCompanyBindings): Promise<void> {
  const control = service.control(systemIn(component, companyId));
  for (const binding of company.bindings) {
    const existing = await control.getBinding(binding.key);
    const wanted = { providerId: binding.providerId, config: binding.config ?? {} };
    const flags = { ...(binding.enabled === undefined ? {} : { enabled: binding.enabled }), ...(binding.hooks === undefined ? {} : { hooks: binding.hooks }) };
    if (existing === undefined) {
      await control.createBinding({ key: binding.key, ...wanted, ...flags });
    } else if (
      !sameJson({ providerId: existing.providerId, config: existing.config }, wanted) ||
      (binding.enabled !== undefined && binding.enabled !== existing.enabled) ||
      Object.entries(binding.hooks ?? {}).some(([hook, on]) => existing.hooks[hook as keyof typeof existing.hooks] !== on)
    ) {
      await control.updateBinding(binding.key, { ...wanted, ...flags, expectedRevision: existing.revision });
    }
  }
  if (company.default !== undefined) await control.setTarget({ targetType: 'company' }, company.default);
  for (const [agentId, key] of Object.entries(company.agents ?? {})) await control.setTarget({ targetType: 'agent', agentId }, key);
}

/**
 * The bindings of a company, none for one the host does not know yet: `memplane serve` answers
 * a listing of such a company with `MEMORY_NOT_FOUND` (a client of it over HTTP sees that).
 */
async function bindingsOf(control: Pick<MemoryControlPlane, 'listBindings'>): Promise<MemoryBinding[]> {
  try {
    return await control.listBindings();
  } catch (error) {
    if (MemoryError.hasCode(error, 'MEMORY_NOT_FOUND')) return [];
    throw error;
  }
}

/**
 * The zero-config default: a company with no binding at all gets a `default` binding on the
 * built-in markdown provider, as its company default. A company with any binding is left as
 * its operator made it. Through a client of `memplane serve`, a company the server does not
 * know yet (its bindings answer `MEMORY_NOT_FOUND`) has none.
 */
export async function ensureDefaultMarkdownBinding(service: BindingControlHost, component: string, companyId: string): Promise<void> {
  const control = service.control(systemIn(component, companyId));
  if ((await bindingsOf(control)).length > 0) return;
  try {
    await control.createBinding({ key: 'default', providerId: 'markdown' });
  } catch (error) {
    // Two workers starting together for a new company: the other one created it first, which is as good.
    if ((await control.getBinding('default')) === undefined) throw error;
  }
  await control.setTarget({ targetType: 'company' }, 'default');
}
