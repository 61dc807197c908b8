import { MemoryValidationError, type MemoryProviderCheckContext, type MemoryProviderDefinition } from '@memplane/core';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { confinePath } from '../security/confined-path';

/*
 * The checks a provider's description asks for by naming fields, the same for every provider:
 * the service knows no provider, only what each one declares.
 */

/**
 * Every `requiredFields` entry is set: a provider declares the fields without which its adapter
 * would fall back to the host's own environment (an API key variable, a cloud identity).
 */
export function checkRequiredFields(definition: MemoryProviderDefinition, config: Record<string, unknown>): void {
  const missing = (definition.requiredFields ?? []).filter((field) => config[field] === undefined || config[field] === null);
  if (missing.length === 0) return;
  throw new MemoryValidationError({
    target: 'binding config',
    issues: missing.map((field) => ({
      path: `config.${field}`,
      message: `is required by provider "${definition.providerId}": the service never lets an adapter fall back to the host's own environment or credentials`,
    })),
  });
}

/**
 * The folder of a provider that keeps files (`localRootField`): the configured path, resolved
 * in the company's folder (default: the binding's folder), proven to stay inside the company's
 * folder lexically and through every symbolic link on the way. Without a data directory there
 * is no company folder, so the binding is refused. Throws `MemoryBindingRefusedError` (rule
 * `local.root`) naming the field.
 */
export function confineLocalRoot(definition: MemoryProviderDefinition, config: Record<string, unknown>, context: MemoryProviderCheckContext): string | undefined {
  const field = definition.localRootField;
  if (field === undefined) return undefined;
  const refuse = (message: string): never => {
    throw new MemoryBindingRefusedError({ rule: 'local.root', companyId: context.companyId, field: `config.${field}`, message });
  };
  if (context.companyDirectory === undefined) {
    return refuse(`needs the service's dataDirectory: provider "${definition.providerId}" keeps its files in the company's folder under it`);
  }
  const configured = config[field];
  if (configured !== undefined && typeof configured !== 'string') return refuse('must be a path');
  // The company's folder, never the data directory: one company's config can never reach
  // another company's files, through `..`, an absolute path or a symbolic link.
  const confined = confinePath(context.companyDirectory, configured ?? context.bindingDirectory ?? context.companyDirectory);
  return 'path' in confined ? confined.path : refuse(confined.refused);
}

/**
 * Where a provider with a `destination` sends its requests: the configured endpoint, else its
 * default for this config, checked against the operator's allow-list (the description's
 * official endpoints unless the operator names others). Returns the endpoint to write into the
 * adapter's settings (the default, when the description asks for it to be passed), or
 * undefined. A config whose destination cannot be known is refused: every destination is checked.
 */
export function checkDestination(definition: MemoryProviderDefinition, config: Record<string, unknown>, context: MemoryProviderCheckContext): string | undefined {
  const destination = definition.destination;
  if (destination === undefined) return undefined;
  const field = `config.${destination.field}`;
  const configured = config[destination.field];
  if (configured !== undefined) {
    context.checkDestination(field, configured);
    return undefined;
  }
  const fallback = destination.defaultEndpoint(config);
  if (fallback === undefined) {
    throw new MemoryValidationError({
      target: 'binding config',
      issues: [{ path: field, message: `is required here: provider "${definition.providerId}" cannot tell from this config where its requests go, and the service checks every destination` }],
    });
  }
  context.checkDestination(field, fallback);
  return destination.passDefault ? fallback : undefined;
}
