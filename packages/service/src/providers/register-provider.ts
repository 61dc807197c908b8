import { z } from 'zod';
import { activityEntry } from '../audit/activity-entry';
import { parseArgument } from '../control/parse-request';
import { authorizeCompany } from '../policy/authorize-company';
import { parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryProviderFactory } from './memory-provider-factory';

/** Options of `service.providers.register`. */
export interface MemoryProviderRegistration {
  /** Replace a provider registered under the same id (its bindings rebuild their adapters on next use). */
  replace?: boolean;
}

const registrationSchema = z.strictObject({ replace: z.boolean().optional() }).optional();

/**
 * Registers or replaces a provider factory: an operator action (`providers.write`: operators
 * granted the company named in the context, and the system; never company members or agents).
 * The registry is service-wide; the change is recorded in the activity log of the context's
 * company (`provider.registered` or `provider.replaced`, with the provider id and description)
 * before it takes effect, so there is no change without its entry.
 */
export async function registerProvider(
  internals: ServiceInternals,
  context: MemoryCallContext,
  factory: MemoryProviderFactory,
  options?: MemoryProviderRegistration,
): Promise<void> {
  const valid = parseCallContext(context);
  const registration = parseArgument(registrationSchema, options, 'provider registration', 'options') ?? {};
  internals.registry.validate(factory, registration);
  const companyId = await authorizeCompany(internals.authorize, valid, 'providers.write');
  const previous = internals.registry.get(factory.providerId);
  const describe = (entry: MemoryProviderFactory) => ({ providerId: entry.providerId, description: entry.description });
  await internals.store.appendActivity([
    activityEntry(
      internals,
      valid.actor,
      companyId,
      previous === undefined ? 'provider.registered' : 'provider.replaced',
      { type: 'provider', id: factory.providerId },
      previous === undefined ? null : describe(previous),
      describe(factory),
    ),
  ]);
  internals.registry.register(factory, registration);
  internals.adapters.invalidate(factory.providerId);
}
