import { join } from 'node:path';
import type { MemoryBinding } from '../bindings/memory-binding';
import { assertNoPlainSecrets, type SecretSources } from '../bindings/secret-reference';
import { checkConfigDestinations, type DestinationCheck } from '../security/provider-destinations';
import type { SecretRedactor } from '../security/secret-redactor';
import type { MemoryProviderCheckContext, MemoryProviderFactory } from './memory-provider-factory';

/** The operator's rules every binding config is held to, at creation and at every adapter build. */
export interface BindingRules {
  /** Where secret values come from, and which environment variables each company may read. */
  secrets: SecretSources;
  /** The endpoint allow-list. */
  destinations: DestinationCheck;
  /** The service's data directory, absolute, when it has one. */
  dataDirectory: string | undefined;
  /** Learns every secret value resolved, to redact it everywhere. */
  redactor: SecretRedactor;
}

// File names derived from ids: anything outside a safe set is escaped, so ids never form paths.
function safeSegment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** The folders and the destination check a factory sees for a binding. */
export function checkContextOf(rules: BindingRules, binding: Pick<MemoryBinding, 'id' | 'key' | 'companyId' | 'providerId'>): MemoryProviderCheckContext {
  const companyDirectory =
    rules.dataDirectory === undefined ? undefined : join(rules.dataDirectory, safeSegment(binding.providerId), safeSegment(binding.companyId));
  return {
    companyId: binding.companyId,
    bindingId: binding.id,
    bindingKey: binding.key,
    dataDirectory: rules.dataDirectory,
    companyDirectory,
    bindingDirectory: companyDirectory === undefined ? undefined : join(companyDirectory, safeSegment(binding.id)),
    checkDestination: (field, url) => rules.destinations({ providerId: binding.providerId, companyId: binding.companyId, field, url }),
  };
}

/**
 * Holds a binding config (secrets still as references) to the operator's rules: no credential
 * in plain text, every URL on the allow-list, and the factory's own checks (a hosted provider's
 * destination and required fields, a markdown root inside the company's folder). Throws a typed
 * error naming the field.
 */
export async function checkBindingConfig(rules: BindingRules, binding: MemoryBinding, factory: MemoryProviderFactory): Promise<MemoryProviderCheckContext> {
  assertNoPlainSecrets(binding.config, factory.secretFields);
  checkConfigDestinations(rules.destinations, binding.providerId, binding.companyId, binding.config);
  const context = checkContextOf(rules, binding);
  await factory.checkConfig?.(binding.config, context);
  return context;
}
