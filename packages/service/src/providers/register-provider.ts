import type { MemoryProviderDefinition } from '@memplane/core';
import { z } from 'zod';
import { activityEntry } from '../audit/activity-entry';
import { parseArgument } from '../control/parse-request';
import { authorizeCompany } from '../policy/authorize-company';
import { parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';

/** Options of `service.providers.register`. */
export interface MemoryProviderRegistration {
  /** Replace a provider registered under the same id (its bindings rebuild their adapters on next use). */
  replace?: boolean;
}

const registrationSchema = z.strictObject({ replace: z.boolean().optional() }).optional();

/**
 * Registers or replaces a provider definition: an operator action (`providers.write`: operators
 * granted the company named in the context, and the system; never company members or agents).
 * The registry is service-wide; the change is recorded in the activity log of the context's
 * company (`provider.registered` or `provider.replaced`, with the provider id and description)
 * before it takes effect, so there is no change without its entry.
 */
export async function registerProvider(
  internals: ServiceInternals,
  context: MemoryCallContext,
  definition: MemoryProviderDefinition,
  options?: MemoryProviderRegistration,
): Promise<void> {
  const valid = parseCallContext(context);
  const registration = parseArgument(registrationSchema, options, 'provider registration', 'options') ?? {};
  // The checked, frozen copy is what is logged and registered: the caller cannot change it between the two.
  const checked = internals.registry.validate(definition, registration);
  const companyId = await authorizeCompany(internals.authorize, valid, 'providers.write');
  const previous = internals.registry.get(checked.providerId);
  const describe = (entry: MemoryProviderDefinition) => ({ providerId: entry.providerId, description: entry.description });
  await internals.store.appendActivity([
    activityEntry(
      internals,
      valid.actor,
      companyId,
      previous === undefined ? 'provider.registered' : 'provider.replaced',
      { type: 'provider', id: checked.providerId },
      previous === undefined ? null : describe(previous),
      describe(checked),
    ),
  ]);
  internals.registry.register(checked, { ...registration, origin: 'registered' });
  internals.adapters.invalidate(checked.providerId);
}
