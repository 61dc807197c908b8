import { isSecretReference, MemoryConfigurationError, MemoryValidationError, type MemoryValidationIssue, type SecretReference } from '@memplane/core';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { credentialInString, isCredentialKeyName } from '../security/credential-shapes';


/**
 * Resolves a secret-resolver key to its value for one company; the host plugs in its vault.
 * It decides what each company may read: throwing refuses (at binding creation, with
 * `MemoryBindingRefusedError`, and when the adapter is built).
 */
export type SecretResolver = (key: string, context: { companyId: string; bindingKey: string }) => string | Promise<string>;

/**
 * The environment variables each company's `{ $secret: { env } }` references may read: a map
 * from company id to variable names, or a function of the company id. A company that is not
 * listed may read none.
 */
export type SecretEnvironmentAllowList = Readonly<Record<string, readonly string[]>> | ((companyId: string) => readonly string[]);


function walk(value: unknown, path: string[], visit: (value: unknown, path: string[]) => 'stop' | 'continue'): void {
  if (visit(value, path) === 'stop') return;
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, String(index)], visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) walk(item, [...path, key], visit);
  }
}

const referenceOnly = 'must be a secret reference ({ $secret: { env: NAME } } or { $secret: { key: KEY } }), never a value';

/** The fields that name a header or parameter in a name/value pair (`{ name: 'Authorization', value: '…' }`). */
const pairNameFields = ['name', 'key', 'header', 'headerName'] as const;

/** The name of a name/value pair, when the object is one. */
function pairNameOf(record: Record<string, unknown>): string | undefined {
  if (!('value' in record)) return undefined;
  for (const field of pairNameFields) {
    const name = record[field];
    if (typeof name === 'string') return name;
  }
  return undefined;
}

/**
 * The plain-text credentials in a config, as validation issues (`config.headers.Authorization`),
 * never with the value:
 * - a value at one of the provider's `secretFields` (dotted paths) that is not a reference;
 * - any string under a credential-like key at any depth, in any case, arrays included
 *   (`apiKey`, `apiKeys`, `key`, `secret`, `secretAccessKey`, `access_key`, `token`,
 *   `password`, `auth`, `credential`, `Authorization`, `cookie`, `accountKey`, …), and the
 *   `value` of a name/value pair whose name is one (`{ name: 'X-Api-Key', value: '…' }`; the
 *   name itself, even under `key`, is a name);
 * - any string carrying a credential whatever its key: a key or token of a known shape
 *   anywhere in it (`sk-…`, `AKIA…`, `ghp_…`, `xox…`, a JSON Web Token, a private key, …), a
 *   URL or connection string with a user or password, a credential query parameter
 *   (`?api_key=`, `token=`, `key=`), `Password=`, an authorization header value;
 * - an object key carrying a credential (reported on the object, so the key is never repeated);
 * - any malformed `$secret`.
 */
export function plainSecretIssues(config: unknown, secretFields: readonly string[] = []): MemoryValidationIssue[] {
  const issues: MemoryValidationIssue[] = [];
  const declared = new Set(secretFields);
  const visit = (value: unknown, path: string[], credentialByName: boolean): void => {
    const field = ['config', ...path].join('.');
    if (isSecretReference(value)) return;
    if (typeof value === 'object' && value !== null && '$secret' in value) {
      issues.push({ path: field, message: 'must be { $secret: { env: NAME } } or { $secret: { key: KEY } }' });
      return;
    }
    if (declared.has(path.join('.')) && value !== undefined && value !== null) {
      issues.push({ path: field, message: referenceOnly });
      return;
    }
    if (typeof value === 'string') {
      if (credentialByName) {
        issues.push({ path: field, message: referenceOnly });
        return;
      }
      const shape = credentialInString(value);
      if (shape !== undefined) issues.push({ path: field, message: `${shape}; keep the credential in a secret reference` });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, String(index)], credentialByName));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const pairName = pairNameOf(record);
    for (const [key, item] of Object.entries(record)) {
      const keyShape = credentialInString(key);
      if (keyShape !== undefined) {
        issues.push({ path: field, message: `has a key that ${keyShape}; keep the credential in a secret reference` });
        continue;
      }
      const namesPair = pairName !== undefined && (pairNameFields as readonly string[]).includes(key);
      const byName = credentialByName || (!namesPair && isCredentialKeyName(key)) || (key === 'value' && pairName !== undefined && isCredentialKeyName(pairName));
      visit(item, [...path, key], byName);
    }
  };
  visit(config, [], false);
  return issues;
}

/** Throws `MemoryValidationError` naming every plain-text credential of {@link plainSecretIssues}; the message never repeats a value. */
export function assertNoPlainSecrets(config: Record<string, unknown>, secretFields: readonly string[] = []): void {
  const issues = plainSecretIssues(config, secretFields);
  if (issues.length > 0) throw new MemoryValidationError({ target: 'binding config', issues });
}

/** Where secret values come from when an adapter is built. */
export interface SecretSources {
  /** The environment, for `{ env }` references. */
  environment: Record<string, string | undefined>;
  /** Which variables each company may read. Undefined: none. */
  allowedEnvironment: SecretEnvironmentAllowList | undefined;
  /** The host's resolver, for `{ key }` references. */
  resolver: SecretResolver | undefined;
}

/** Every secret reference of a config with its dotted field (`config.apiKey`). */
export function secretReferencesOf(config: unknown): Array<{ field: string; reference: SecretReference }> {
  const found: Array<{ field: string; reference: SecretReference }> = [];
  walk(config, [], (value, path) => {
    if (!isSecretReference(value)) return 'continue';
    found.push({ field: ['config', ...path].join('.'), reference: value });
    return 'stop';
  });
  return found;
}

function environmentAllowed(sources: SecretSources, companyId: string, name: string): boolean {
  const allowList = sources.allowedEnvironment;
  if (allowList === undefined) return false;
  let names: readonly string[] | undefined;
  try {
    names = typeof allowList === 'function' ? allowList(companyId) : Object.hasOwn(allowList, companyId) ? allowList[companyId] : undefined;
  } catch {
    // An allow-list that fails allows nothing.
    return false;
  }
  return Array.isArray(names) && names.includes(name);
}

async function resolveOne(
  reference: SecretReference,
  field: string,
  sources: SecretSources,
  context: { companyId: string; bindingKey: string },
  requireValue: boolean,
): Promise<string | undefined> {
  const inner = reference.$secret;
  if ('env' in inner) {
    if (!environmentAllowed(sources, context.companyId, inner.env)) {
      throw new MemoryBindingRefusedError({
        rule: 'secret.environment',
        companyId: context.companyId,
        field,
        message: `refers to environment variable ${inner.env}, which the operator does not allow for company "${context.companyId}": the operator allows a variable for a company with the service's secretEnvironment setting (the "secretEnvironment" map of a memplane-mcp config)`,
      });
    }
    const found = sources.environment[inner.env];
    if (requireValue && (found === undefined || found === '')) {
      throw new MemoryConfigurationError({
        message: `Binding "${context.bindingKey}": ${field} refers to environment variable ${inner.env}, which is not set.`,
      });
    }
    return found === '' ? undefined : found;
  }
  const refuse = (message: string, cause?: unknown) =>
    new MemoryBindingRefusedError({ rule: 'secret.resolver', companyId: context.companyId, field, message, cause });
  if (sources.resolver === undefined) throw refuse(`refers to secret key "${inner.key}", but the service has no secretResolver`);
  let value: unknown;
  try {
    value = await sources.resolver(inner.key, { companyId: context.companyId, bindingKey: context.bindingKey });
  } catch (cause) {
    throw refuse(`the secret resolver could not resolve "${inner.key}" for company "${context.companyId}"`, cause);
  }
  if (typeof value !== 'string' || value === '') throw refuse(`the secret resolver gave no string for "${inner.key}"`);
  return value;
}

/**
 * Checks every secret reference of a config for the binding's company, as at binding creation:
 * an `{ env }` reference must name a variable the operator allows for the company (it may be
 * unset yet); a `{ key }` reference must resolve through the host's resolver. Anything else
 * throws `MemoryBindingRefusedError` naming the field. Returns the values it read, so they can
 * be redacted wherever they show up.
 */
export async function checkSecretReferences(
  config: unknown,
  sources: SecretSources,
  context: { companyId: string; bindingKey: string },
): Promise<string[]> {
  const values: string[] = [];
  for (const { field, reference } of secretReferencesOf(config)) {
    const value = await resolveOne(reference, field, sources, context, false);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/**
 * Returns a copy of the config with every secret reference replaced by its value, and the
 * values. The company rules of {@link checkSecretReferences} apply again, so a narrowed
 * allow-list fails closed. A missing variable throws `MemoryConfigurationError` naming the
 * reference, never a value.
 */
export async function resolveSecrets(
  config: Record<string, unknown>,
  sources: SecretSources,
  context: { companyId: string; bindingKey: string },
): Promise<{ config: Record<string, unknown>; values: string[] }> {
  const values: string[] = [];
  async function resolve(value: unknown, path: string): Promise<unknown> {
    if (isSecretReference(value)) {
      const resolved = (await resolveOne(value, path, sources, context, true))!;
      values.push(resolved);
      return resolved;
    }
    if (Array.isArray(value)) return Promise.all(value.map((item, index) => resolve(item, `${path}.${index}`)));
    if (typeof value === 'object' && value !== null) {
      const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await resolve(item, `${path}.${key}`)] as const));
      return Object.fromEntries(entries);
    }
    return value;
  }
  return { config: (await resolve(config, 'config')) as Record<string, unknown>, values };
}
