import { readFile } from 'node:fs/promises';
import { identifierSchema, MemoryConfigurationError, parseInput } from '@memplane/core';
import { applyDeclaredCompanyBindings, ensureDefaultMarkdownBinding } from '@memplane/host';
import type { MemoryService } from '@memplane/service';
import { z } from 'zod';

const bindingSchema = z.strictObject({
  key: z.string().min(1).max(64),
  providerId: identifierSchema,
  config: z.record(z.string(), z.unknown()).optional(),
  enabled: z.boolean().optional(),
  hooks: z
    .strictObject({ postRunCapture: z.boolean().optional(), issueCommentCapture: z.boolean().optional(), issueDocumentCapture: z.boolean().optional() })
    .optional(),
});

const companySchema = z.strictObject({
  bindings: z.array(bindingSchema).max(100).default([]),
  default: z.string().min(1).max(64).optional(),
  agents: z.record(identifierSchema, z.string().min(1).max(64)).optional(),
});

/** The config file of bindings: per company, its bindings, its default and its agents' overrides. */
export const mcpBindingsConfigSchema = z.strictObject({
  /**
   * Provider packages to offer besides markdown and memory, by package name (`@memplane/mem0`):
   * each describes its provider from its `./provider` subpath (`loadProviderPackage`).
   */
  providers: z.array(z.string().min(1).max(214)).max(100).optional(),
  /** Which environment variables each company's `{ $secret: { env } }` references may read. */
  secretEnvironment: z.record(identifierSchema, z.array(z.string().min(1).max(256)).max(100)).optional(),
  companies: z.record(identifierSchema, companySchema).default({}),
});

/** A parsed config file of bindings. */
export type McpBindingsConfig = z.output<typeof mcpBindingsConfigSchema>;

/** Reads and validates a config file of bindings (JSON); a bad one throws `MemoryValidationError` naming the field. */
export async function readBindingsConfig(path: string): Promise<McpBindingsConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The bindings config file ${path} cannot be read`, cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new MemoryConfigurationError({ message: `The bindings config file ${path} is not JSON`, cause });
  }
  return parseInput(mcpBindingsConfigSchema, json, 'bindings config') as McpBindingsConfig;
}

const component = 'memplane-mcp';

/**
 * Makes the service's bindings and targets what the file says, through the control plane (so
 * every change is checked by the operator's rules and written in the company's activity log).
 * A binding the file names is created, or updated when its provider or config changed;
 * bindings the file does not name are left alone.
 */
export async function applyBindingsConfig(service: MemoryService, config: McpBindingsConfig): Promise<void> {
  for (const [companyId, company] of Object.entries(config.companies)) await applyDeclaredCompanyBindings(service, component, companyId, company);
}

/**
 * The zero-config default: a company with no binding at all gets a `default` binding on the
 * built-in markdown provider, as its company default. A company with any binding is left as
 * its operator made it.
 */
export async function ensureDefaultBinding(service: MemoryService, companyId: string): Promise<void> {
  await ensureDefaultMarkdownBinding(service, component, companyId);
}
