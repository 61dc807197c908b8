import { MemoryConfigurationError, MemoryValidationError, type MemoryValidationIssue } from '@memplane/core';

/**
 * A secret in a binding config: the name of an environment variable, or a key the host's
 * secret resolver understands. Only the reference is stored; the value is read when the
 * adapter is built and never stored, logged or returned.
 */
export type SecretReference = { $secret: { env: string } } | { $secret: { key: string } };

/** Resolves a secret-resolver key to its value; the host plugs in its vault. */
export type SecretResolver = (key: string, context: { companyId: string; bindingKey: string }) => string | Promise<string>;

// Config keys that name secrets by convention. A plain string under such a key is refused.
const secretLikeKey = /(api[-_]?key|secret|token|password|passphrase|private[-_]?key)$/i;

/** Whether a value is a well-formed secret reference. */
export function isSecretReference(value: unknown): value is SecretReference {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== '$secret') return false;
  const inner = (value as { $secret: unknown }).$secret;
  if (typeof inner !== 'object' || inner === null) return false;
  const innerKeys = Object.keys(inner);
  if (innerKeys.length !== 1) return false;
  const name = (inner as Record<string, unknown>)[innerKeys[0]!];
  return (innerKeys[0] === 'env' || innerKeys[0] === 'key') && typeof name === 'string' && name.trim() !== '' && name.length <= 256;
}

function walk(
  value: unknown,
  path: string[],
  visit: (value: unknown, path: string[]) => 'stop' | 'continue',
): void {
  if (visit(value, path) === 'stop') return;
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, String(index)], visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) walk(item, [...path, key], visit);
  }
}

/**
 * Refuses a config holding a secret in plain text: a value at one of the provider's
 * `secretFields` (dotted paths) that is not a reference, any string under a secret-looking key
 * (`apiKey`, `token`, `password`, …), and any malformed `$secret`. Throws `MemoryValidationError`
 * naming the field (`config.apiKey`); the message never repeats the value.
 */
export function assertNoPlainSecrets(config: Record<string, unknown>, secretFields: readonly string[] = []): void {
  const issues: MemoryValidationIssue[] = [];
  const declared = new Set(secretFields);
  walk(config, [], (value, path) => {
    const dotted = path.join('.');
    if (isSecretReference(value)) return 'stop';
    if (typeof value === 'object' && value !== null && '$secret' in value) {
      issues.push({ path: ['config', ...path].join('.'), message: 'must be { $secret: { env: NAME } } or { $secret: { key: KEY } }' });
      return 'stop';
    }
    const key = path[path.length - 1];
    const looksSecret = key !== undefined && secretLikeKey.test(key) && typeof value === 'string';
    if (declared.has(dotted) || looksSecret) {
      issues.push({
        path: ['config', ...path].join('.'),
        message: 'must be a secret reference ({ $secret: { env: NAME } } or { $secret: { key: KEY } }), never a value',
      });
      return 'stop';
    }
    return 'continue';
  });
  if (issues.length > 0) throw new MemoryValidationError({ target: 'binding config', issues });
}

/** Where secret values come from when an adapter is built. */
export interface SecretSources {
  /** The environment, for `{ env }` references. */
  environment: Record<string, string | undefined>;
  /** The host's resolver, for `{ key }` references. */
  resolver: SecretResolver | undefined;
}

/**
 * Returns a copy of the config with every secret reference replaced by its value. A missing
 * variable or an unresolvable key throws `MemoryConfigurationError` naming the reference, never a value.
 */
export async function resolveSecrets(
  config: Record<string, unknown>,
  sources: SecretSources,
  context: { companyId: string; bindingKey: string },
): Promise<Record<string, unknown>> {
  async function resolve(value: unknown, path: string): Promise<unknown> {
    if (isSecretReference(value)) {
      const reference = value.$secret;
      if ('env' in reference) {
        const found = sources.environment[reference.env];
        if (found === undefined || found === '') {
          throw new MemoryConfigurationError({
            message: `Binding "${context.bindingKey}": ${path} refers to environment variable ${reference.env}, which is not set.`,
          });
        }
        return found;
      }
      if (sources.resolver === undefined) {
        throw new MemoryConfigurationError({
          message: `Binding "${context.bindingKey}": ${path} refers to secret key "${reference.key}", but the service has no secretResolver.`,
        });
      }
      try {
        return await sources.resolver(reference.key, context);
      } catch (cause) {
        throw new MemoryConfigurationError({
          message: `Binding "${context.bindingKey}": the secret resolver could not resolve "${reference.key}" for ${path}.`,
          cause,
        });
      }
    }
    if (Array.isArray(value)) return Promise.all(value.map((item, index) => resolve(item, `${path}.${index}`)));
    if (typeof value === 'object' && value !== null) {
      const entries = await Promise.all(
        Object.entries(value).map(async ([key, item]) => [key, await resolve(item, `${path}.${key}`)] as const),
      );
      return Object.fromEntries(entries);
    }
    return value;
  }
  return (await resolve(config, 'config')) as Record<string, unknown>;
}
