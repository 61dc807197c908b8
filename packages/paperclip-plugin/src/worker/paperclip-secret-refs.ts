import { MemoryConfigurationError } from '@memplane/core';
import { z } from 'zod';

/**
 * A Paperclip secret reference, the only shape the host binds: when a company's config is saved,
 * the host records a binding for every `{ "type": "secret_ref", "secretId": "<uuid>" }` it finds
 * (at its dotted path), and `ctx.secrets.resolve` later answers only for a bound reference.
 * `version` is a positive number or `"latest"` (the default). The projection fields are the
 * host's own and passed through untouched.
 */
export const paperclipSecretRefSchema = z.strictObject(
  {
    type: z.literal('secret_ref'),
    secretId: z.guid('must be the uuid of a company secret'),
    version: z.union([z.literal('latest'), z.number().int().positive()]).optional(),
    projectionClass: z.string().min(1).max(64).optional(),
    projectionAllowlistKey: z.string().min(1).max(160).nullable().optional(),
  },
  { error: 'must be a Paperclip secret reference { "type": "secret_ref", "secretId": "<uuid of a company secret>" }, never the value itself' },
);

/** A parsed Paperclip secret reference. */
export type PaperclipSecretRef = z.output<typeof paperclipSecretRefSchema>;

/** What the worker uses of `ctx.secrets`. */
export type ResolvePaperclipSecret = (secretRef: PaperclipSecretRef, options: { companyId: string; configPath: string }) => Promise<string>;

const legacyMessage =
  'is a { "$secret": … } reference, which Paperclip never binds to the plugin (it could never be resolved); use { "type": "secret_ref", "secretId": "<uuid of a company secret>" }';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of every object in `value` that `matches`, without looking inside a match. */
function pathsOf(value: unknown, matches: (record: Record<string, unknown>) => boolean, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsOf(item, matches, [...path, index]));
  if (!isRecord(value)) return [];
  if (matches(value)) return [path];
  return Object.entries(value).flatMap(([key, item]) => pathsOf(item, matches, [...path, key]));
}

/** Every `{ $secret: … }` in a config, by path: the form Paperclip does not bind, refused where it stands. */
export function legacySecretReferencePaths(value: unknown): Array<Array<string | number>> {
  return pathsOf(value, (record) => Object.hasOwn(record, '$secret'));
}

/** Adds an issue for each `{ $secret: … }` in `value` (for a zod `superRefine`). */
export function refuseLegacySecretReferences(value: unknown, issues: z.RefinementCtx, base: Array<string | number> = []): void {
  for (const path of legacySecretReferencePaths(value)) issues.addIssue({ code: 'custom', path: [...base, ...path], message: legacyMessage });
}

const serverBindingMessage =
  'is a Paperclip secret_ref, which a memplane serve cannot resolve: with service.mode "http" the server resolves a binding\'s secrets itself, so use its { "$secret": { "env": "<variable>" } } or { "$secret": { "key": "<key>" } } form';

/** Adds an issue for each `secret_ref` in a binding config sent to a memplane serve (which resolves its own secrets). */
export function refuseSecretRefsForServer(value: unknown, issues: z.RefinementCtx, base: Array<string | number>): void {
  for (const path of pathsOf(value, (record) => record['type'] === 'secret_ref')) issues.addIssue({ code: 'custom', path: [...base, ...path], message: serverBindingMessage });
}

// The service stores `{ $secret: { key } }` in a binding's config and hands the key back to its
// resolver when it builds the adapter. The key carries what the host needs to find the binding:
// the secret, its version and the config path it was saved at.
const keyPrefix = 'paperclip-secret-ref:';
const maxKeyLength = 256;

/** The service-side key of a Paperclip reference found at `configPath`. */
export function serviceSecretKey(ref: PaperclipSecretRef, configPath: string): string {
  const key = `${keyPrefix}${JSON.stringify([ref.secretId, ref.version ?? 'latest', configPath])}`;
  if (key.length > maxKeyLength) {
    throw new MemoryConfigurationError({ message: `The secret reference at ${configPath} sits too deep in the config to be handed to the memory service; move it to a shorter path` });
  }
  return key;
}

/** The reference and config path a service key stands for; throws for a key the plugin did not write. */
export function decodeServiceSecretKey(key: string): { ref: PaperclipSecretRef; configPath: string } {
  let decoded: unknown;
  try {
    decoded = key.startsWith(keyPrefix) ? JSON.parse(key.slice(keyPrefix.length)) : undefined;
  } catch {
    decoded = undefined;
  }
  const parsed = z.tuple([z.guid(), z.union([z.literal('latest'), z.number().int().positive()]), z.string().min(1)]).safeParse(decoded);
  if (!parsed.success) throw new MemoryConfigurationError({ message: 'A binding names a secret the plugin did not write; name it in the company config as a secret_ref' });
  const [secretId, version, configPath] = parsed.data;
  return { ref: { type: 'secret_ref', secretId, version }, configPath };
}

/**
 * A binding's provider config for the service: every Paperclip secret reference replaced by a
 * `{ $secret: { key } }` the plugin's resolver understands. `basePath` is the binding config's
 * dotted path in the company config (`bindings.0.config`), which the host bound the secret at.
 */
export function toServiceSecretReferences(value: unknown, basePath: string): unknown {
  const parsed = paperclipSecretRefSchema.safeParse(value);
  if (parsed.success) return { $secret: { key: serviceSecretKey(parsed.data, basePath) } };
  if (Array.isArray(value)) return value.map((item, index) => toServiceSecretReferences(item, `${basePath}.${index}`));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toServiceSecretReferences(item, `${basePath}.${key}`)]));
}

/** Resolves a reference for a company, as a `MemoryConfigurationError` naming the field when the host refuses (never with a value). */
export async function resolveConfigSecret(resolve: ResolvePaperclipSecret, ref: PaperclipSecretRef, companyId: string, configPath: string): Promise<string> {
  let value: unknown;
  try {
    value = await resolve(ref, { companyId, configPath });
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The secret at ${configPath} of company "${companyId}" could not be resolved from Paperclip secrets`, cause });
  }
  if (typeof value !== 'string' || value.trim() === '') throw new MemoryConfigurationError({ message: `The secret at ${configPath} of company "${companyId}" resolved to an empty value` });
  return value.trim();
}
