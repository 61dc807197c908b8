import { readFile } from 'node:fs/promises';
import { identifierSchema, MemoryConfigurationError, parseInput } from '@memplane/core';
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

const operator = (companyId: string) => ({ actor: { kind: 'system', component: 'memplane-mcp' }, companyId }) as const;
const sameJson = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * Makes the service's bindings and targets what the file says, through the control plane (so
 * every change is checked by the operator's rules and written in the company's activity log).
 * A binding the file names is created, or updated when its provider or config changed;
 * bindings the file does not name are left alone.
 */
export async function applyBindingsConfig(service: MemoryService, config: McpBindingsConfig): Promise<void> {
  for (const [companyId, company] of Object.entries(config.companies)) {
    const control = service.control(operator(companyId));
    for (const binding of company.bindings) {
      const existing = await control.getBinding(binding.key);
      const wanted = { providerId: binding.providerId, config: binding.config ?? {} };
      if (existing === undefined) {
        await control.createBinding({ key: binding.key, ...wanted, ...(binding.enabled === undefined ? {} : { enabled: binding.enabled }), ...(binding.hooks === undefined ? {} : { hooks: binding.hooks }) });
      } else if (
        !sameJson({ providerId: existing.providerId, config: existing.config }, wanted) ||
        (binding.enabled !== undefined && binding.enabled !== existing.enabled) ||
        Object.entries(binding.hooks ?? {}).some(([hook, on]) => existing.hooks[hook as keyof typeof existing.hooks] !== on)
      ) {
        await control.updateBinding(binding.key, {
          ...wanted,
          ...(binding.enabled === undefined ? {} : { enabled: binding.enabled }),
          ...(binding.hooks === undefined ? {} : { hooks: binding.hooks }),
          expectedRevision: existing.revision,
        });
      }
    }
    if (company.default !== undefined) await control.setTarget({ targetType: 'company' }, company.default);
    for (const [agentId, key] of Object.entries(company.agents ?? {})) await control.setTarget({ targetType: 'agent', agentId }, key);
  }
}

/**
 * The zero-config default: a company with no binding at all gets a `default` binding on the
 * built-in markdown provider, as its company default. A company with any binding is left as
 * its operator made it.
 */
export async function ensureDefaultBinding(service: MemoryService, companyId: string): Promise<void> {
  const control = service.control(operator(companyId));
  if ((await control.listBindings()).length > 0) return;
  try {
    await control.createBinding({ key: 'default', providerId: 'markdown' });
  } catch (error) {
    // Two servers starting together for a new company: the other one created it first, which is as good.
    if ((await control.getBinding('default')) === undefined) throw error;
  }
  await control.setTarget({ targetType: 'company' }, 'default');
}
