import { join } from 'node:path';
import type { MemoryProviderCheckContext, MemoryProviderDefinition } from '@memplane/core';
import type { MemoryBinding } from '../bindings/memory-binding';
import { assertNoPlainSecrets, type SecretSources } from '../bindings/secret-reference';
import { checkConfigDestinations, type DestinationCheck } from '../security/provider-destinations';
import type { SecretRedactor } from '../security/secret-redactor';
import { checkDestination, checkRequiredFields, confineLocalRoot } from './declared-field-checks';

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

/** The folders and the destination check a provider sees for a binding. */
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

/** A checked binding config: the context the provider sees, and what the service sets in the adapter's settings. */
export interface CheckedBindingConfig {
  context: MemoryProviderCheckContext;
  /**
   * Settings the service decides, written over the config when the adapter is built: the
   * confined local root, and the default endpoint a description asks to be passed.
   */
  overrides: Record<string, unknown>;
}

/**
 * Holds a binding config (secrets still as references) to the operator's rules and to what its
 * provider's description declares, the same checks for every provider: no credential in plain
 * text (the declared secret fields and anything credential-shaped), every URL on the
 * allow-list, the required fields set, the destination (configured or default) allowed, the
 * local root inside the company's folder, and then the description's own `checkConfig`. Throws
 * a typed error naming the field.
 */
export async function checkBindingConfig(rules: BindingRules, binding: MemoryBinding, definition: MemoryProviderDefinition): Promise<CheckedBindingConfig> {
  assertNoPlainSecrets(binding.config, definition.secretFields);
  checkConfigDestinations(rules.destinations, binding.providerId, binding.companyId, binding.config);
  checkRequiredFields(definition, binding.config);
  const context = checkContextOf(rules, binding);
  const overrides: Record<string, unknown> = {};
  const endpoint = checkDestination(definition, binding.config, context);
  if (endpoint !== undefined && definition.destination !== undefined) overrides[definition.destination.field] = endpoint;
  const root = confineLocalRoot(definition, binding.config, context);
  if (root !== undefined && definition.localRootField !== undefined) overrides[definition.localRootField] = root;
  await definition.checkConfig?.(binding.config, context);
  return { context, overrides };
}
