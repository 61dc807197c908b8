import { identifierSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import { mcpBridgeConfigSchema } from '../mcp-bridge/mcp-bridge-config';
import { paperclipSecretRefSchema, refuseLegacySecretReferences, refuseSecretRefsForServer } from './paperclip-secret-refs';
import { inspectorUrlSchema, serviceLocationSchema } from './plugin-service-location';

const bindingKeySchema = z.string().min(1).max(64);

/**
 * One binding of a company: a provider, its config and its opt-ins. Secrets in the config are
 * Paperclip `secret_ref` references with the service in the worker; with a `memplane serve` they
 * are the server's own `{ $secret: … }` references, which the server resolves.
 */
const bindingSchema = z.strictObject({
  key: bindingKeySchema,
  providerId: identifierSchema.default('markdown'),
  config: z.record(z.string(), z.unknown()).optional(),
  enabled: z.boolean().optional(),
  hooks: z
    .strictObject({ postRunCapture: z.boolean().optional(), issueCommentCapture: z.boolean().optional(), issueDocumentCapture: z.boolean().optional() })
    .optional(),
});

/** What `pre_run_hydrate` does for a company's runs. */
const hydrationSchema = z.strictObject({
  /** Recall on `agent.run.started`. Default true. */
  enabled: z.boolean().default(true),
  /** Also write the preamble as an issue document with this key, so an agent without plugin tools reads it; `false` turns that off. */
  issueDocumentKey: z.union([z.string().min(1).max(64).regex(/^[a-z0-9][a-z0-9._-]*$/), z.literal(false)]).default('memplane-memory'),
});

/**
 * Where a company's in-worker service keeps its data. Companies that name the same data folder
 * share one service (each in its own company scope); a different folder is a different service.
 */
const storageSchema = z.strictObject({
  /**
   * The data folder (SQLite file, markdown memory, cursor secret). Default: the plugin's option,
   * else `~/.memplane/paperclip`, where `~` is the worker user's home from the passwd entry (the
   * host starts the worker without HOME). Set it explicitly in production.
   */
  dataDirectory: z.string().min(1).max(4096).optional(),
  /** Postgres instead of SQLite (needs `pg` installed): the connection string as a Paperclip secret reference. */
  postgres: z.strictObject({ connectionString: paperclipSecretRefSchema, schema: identifierSchema.optional() }).optional(),
});

/**
 * One company's plugin config, as Paperclip stores it (one config per plugin and company, read
 * with `ctx.config.get(companyId)`): where the company's memory lives, its bindings, its
 * default and agent overrides, hydration, the inspector and the MCP bridge.
 */
export const paperclipPluginConfigSchema = z
  .strictObject({
    /** Where the memory service lives: in the worker (the default) or a `memplane serve` over `ctx.http`. */
    service: serviceLocationSchema.optional(),
    /** The in-worker service's storage (worker mode only). */
    storage: storageSchema.optional(),
    /** The memplane inspector the issue tab links to (`false`: no link). */
    inspectorUrl: inspectorUrlSchema.optional(),
    /** How the MCP bridge the settings page installs into agents' folders starts `@memplane/mcp` (see the README's MCP bridge section). */
    mcpBridge: mcpBridgeConfigSchema.optional(),
    bindings: z.array(bindingSchema).max(100).default([]),
    default: bindingKeySchema.optional(),
    agents: z.record(identifierSchema, bindingKeySchema).optional(),
    hydration: hydrationSchema.prefault({}),
  })
  .superRefine((config, issues) => {
    // In http mode a binding's config goes to the server, which resolves its own `$secret` references;
    // everywhere else (and for the token) only a Paperclip secret_ref can ever resolve.
    const overHttp = config.service?.mode === 'http';
    refuseLegacySecretReferences(overHttp ? { ...config, bindings: [] } : config, issues);
    if (overHttp) config.bindings.forEach((binding, index) => refuseSecretRefsForServer(binding.config, issues, ['bindings', index, 'config']));
    if (config.service?.mode === 'http' && config.storage !== undefined) {
      issues.addIssue({ code: 'custom', path: ['storage'], message: 'applies only when the service runs in the worker; a memplane serve keeps its own storage' });
    }
  });

/** A parsed company config. */
export type PaperclipPluginConfig = z.output<typeof paperclipPluginConfigSchema>;
/** A parsed company config (the same shape: there is no instance-wide config in Paperclip). */
export type CompanyMemoryConfig = PaperclipPluginConfig;

/** Validates a company's config; a bad one throws `MemoryValidationError` naming the field (`config.bindings.0.key`). */
export function parsePluginConfig(config: unknown): PaperclipPluginConfig {
  return parseInput(paperclipPluginConfigSchema, config ?? {}, 'paperclip plugin config', 'config') as PaperclipPluginConfig;
}

/** The defaults a company without a saved config runs on (a markdown binding is made for it). */
export const defaultCompanyConfig: CompanyMemoryConfig = paperclipPluginConfigSchema.parse({});
