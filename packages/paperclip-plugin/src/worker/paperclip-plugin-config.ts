import { identifierSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import { mcpBridgeConfigSchema } from '../mcp-bridge/mcp-bridge-config';
import { inspectorUrlSchema, serviceLocationSchema } from './plugin-service-location';

const bindingKeySchema = z.string().min(1).max(64);

/** One binding of a company: a provider, its config (secrets as `{ $secret: { key } }` Paperclip secret references) and its opt-ins. */
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

/** One company's memory: its bindings, its default, its agents' overrides and hydration. */
export const companyMemoryConfigSchema = z.strictObject({
  bindings: z.array(bindingSchema).max(100).default([]),
  default: bindingKeySchema.optional(),
  agents: z.record(identifierSchema, bindingKeySchema).optional(),
  hydration: hydrationSchema.prefault({}),
});

/** Where the worker's service keeps its data. Instance-wide: read from the instance config, never from a company's. */
const storageSchema = z.strictObject({
  /** The data folder (SQLite file, markdown memory, cursor secret). Default: the plugin's option, else `~/.memplane/paperclip`. */
  dataDirectory: z.string().min(1).max(4096).optional(),
  /** Postgres instead of SQLite (needs `@memplane/service-postgres`): a Paperclip secret reference to the connection string. */
  postgres: z.strictObject({ connectionStringRef: z.string().min(1).max(512), schema: identifierSchema.optional() }).optional(),
});

/** The plugin's instance config: where the service lives, storage, the inspector, the MCP bridge, and per company (keyed by company id) its memory config. */
export const paperclipPluginConfigSchema = z
  .strictObject({
    service: serviceLocationSchema.optional(),
    storage: storageSchema.optional(),
    inspectorUrl: inspectorUrlSchema.optional(),
    /** How the MCP bridge the settings page installs into agents' folders starts `@memplane/mcp` (see the README's MCP bridge section). */
    mcpBridge: mcpBridgeConfigSchema.optional(),
    companies: z.record(identifierSchema, companyMemoryConfigSchema).default({}),
  })
  .superRefine((config, issues) => {
    if (config.service?.mode === 'http' && config.storage !== undefined) {
      issues.addIssue({ code: 'custom', path: ['storage'], message: 'applies only when the service runs in the worker; a memplane serve keeps its own storage' });
    }
  });

/** A parsed instance config. */
export type PaperclipPluginConfig = z.output<typeof paperclipPluginConfigSchema>;
/** A parsed company config. */
export type CompanyMemoryConfig = z.output<typeof companyMemoryConfigSchema>;

/** Validates the instance config; a bad one throws `MemoryValidationError` naming the field (`config.companies.acme.bindings.0.key`). */
export function parsePluginConfig(config: unknown): PaperclipPluginConfig {
  return parseInput(paperclipPluginConfigSchema, config ?? {}, 'paperclip plugin config', 'config') as PaperclipPluginConfig;
}

/** The company's own entry of a config; a company with none gets the defaults (a markdown binding is made for it). */
export function companyConfigOf(config: PaperclipPluginConfig, companyId: string): CompanyMemoryConfig | undefined {
  return Object.hasOwn(config.companies, companyId) ? config.companies[companyId] : undefined;
}

/** The defaults a company without an entry runs on. */
export const defaultCompanyConfig: CompanyMemoryConfig = companyMemoryConfigSchema.parse({});
