import { identifierSchema, providerIdPattern } from '@memplane/core';
import { z } from 'zod';

/**
 * An npm package name, as `npm` accepts it for a new package: lowercase, at most 214 characters,
 * an optional `@scope/` and one name. Nothing else is loaded: no path (`./x`, `../x`, `/x`), no
 * subpath (`pkg/provider`, the host adds `/provider` itself), no URL or `file:` specifier.
 */
export const packageNamePattern = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

/** A provider package to load by name, such as `@memplane/mem0`. */
export const providerPackageNameSchema = z
  .string()
  .max(214)
  .regex(packageNamePattern, 'must be an npm package name (such as "@memplane/mem0"), not a path or a subpath')
  .refine((name) => !name.split('/').some((part) => part === '.' || part === '..' || part.startsWith('.')), 'must be an npm package name, not a path');

const bindingKeySchema = z.string().min(1).max(64);

const bindingSchema = z.strictObject({
  /** The binding's key, unique in its company. */
  key: bindingKeySchema,
  /** The provider it runs on: `markdown`, `memory`, or the id of a loaded provider package. */
  providerId: identifierSchema,
  /** The provider's binding config; secrets as `{ $secret: { env } }` references. */
  config: z.record(z.string(), z.unknown()).optional(),
  /** Whether the binding serves calls. Default true. */
  enabled: z.boolean().optional(),
  /** Which capture hooks write through it. */
  hooks: z
    .strictObject({ postRunCapture: z.boolean().optional(), issueCommentCapture: z.boolean().optional(), issueDocumentCapture: z.boolean().optional() })
    .optional(),
});

const companySchema = z.strictObject({
  /** The company's declared bindings; bindings not declared are left as they are. */
  bindings: z.array(bindingSchema).max(100).default([]),
  /** The key of the company's default binding. */
  default: bindingKeySchema.optional(),
  /** Per agent, the key of its binding. */
  agents: z.record(identifierSchema, bindingKeySchema).optional(),
});

/** An endpoint of the destination allow-list: a URL, or a URL with `*` labels. */
const endpointSchema = z.url({ protocol: /^https?$/ }).or(z.string().max(2048).regex(/^https?:\/\/[^\s/]*\*[^\s]*$/, 'must be a URL'));

/**
 * The host config file, one format for `memplane serve --config` and `memplane-mcp --config`
 * (JSON). Every section is optional and every object strict: an unknown field is an error
 * naming it, so a typo never passes as a setting left at its default. Today's `memplane-mcp`
 * bindings file (`secretEnvironment` and `companies`) is a valid host config.
 */
export const hostConfigSchema = z.strictObject({
  /** Provider packages to load by name, on top of markdown and memory (each must export `./provider`). */
  providers: z.array(providerPackageNameSchema).max(100).default([]),
  /** Per company, the environment variables its `{ $secret: { env } }` references may read. */
  secretEnvironment: z.record(identifierSchema, z.array(z.string().min(1).max(256)).max(100)).optional(),
  /** Where hosted providers may be reached: endpoints per provider id (default: each provider's official ones) and private networks. */
  destinations: z
    .strictObject({
      endpoints: z.record(z.string().regex(providerIdPattern, 'must be a provider id'), z.array(endpointSchema).max(1000)).optional(),
      allowPrivateNetworks: z.boolean().optional(),
    })
    .optional(),
  /** Per company, its bindings, its default and its agents' bindings. */
  companies: z.record(identifierSchema, companySchema).default({}),
});

/** What a host config file may hold (every section optional). */
export type HostConfigInput = z.input<typeof hostConfigSchema>;

/** A checked host config: `providers` and `companies` always present. */
export type HostConfig = z.output<typeof hostConfigSchema>;
