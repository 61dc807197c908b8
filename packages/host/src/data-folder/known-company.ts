import { MemoryNotFoundError } from '@memplane/core';
import type { MemoryCallContext, MemoryControlPlane } from '@memplane/service';

/** What the check needs of a service: its control plane (a `MemoryService`, or a client of one). */
type CompanyReadHost = {
  control(context: MemoryCallContext): Pick<MemoryControlPlane, 'listBindings' | 'listActivity'>;
};

/**
 * Whether a company is known to the service: it has a binding (enabled or not), or an entry in
 * its activity log (a binding was created there once, even if it has been deleted since). The
 * service keeps no list of companies, so this is what tells a company that exists from a
 * mistyped id. Hosts that provision companies themselves (`memplane serve`, `memplane-mcp` over
 * HTTP) answer a read of an unknown company with {@link unknownCompanyError} and provision only
 * on a write. Checked as the system `component`, outside the caller's policy: call it only for a
 * company the caller's grant reaches, so it never tells one company about another.
 */
export async function isKnownCompany(service: CompanyReadHost, component: string, companyId: string): Promise<boolean> {
  const control = service.control({ actor: { kind: 'system', component }, companyId });
  if ((await control.listBindings()).length > 0) return true;
  return (await control.listActivity({ limit: 1 })).items.length > 0;
}

/** The error a host answers a read of a company that {@link isKnownCompany} does not know: `MEMORY_NOT_FOUND`, naming the company. */
export function unknownCompanyError(companyId: string): MemoryNotFoundError {
  return new MemoryNotFoundError({
    resourceId: companyId,
    message: `Company "${companyId}" is not known: it has no binding and no binding history. Creating a binding or writing memory there starts it.`,
  });
}
