import { identifierSchema } from '@memplane/core';
import { z } from 'zod';

// Paperclip delivers the plugin's config per company (`ctx.config.get(companyId)`), so this is
// the config of one company: its bindings, its default and its agents' overrides.

const bindingKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  .describe('1 to 64 of A-Z, a-z, 0-9, ".", "_" and "-", starting with a letter or digit.');

const hooksSchema = z
  .strictObject({
    postRunCapture: z.boolean().optional().describe('Flush what the run produced when it finishes, fails or is cancelled. Default off.'),
    issueCommentCapture: z.boolean().optional().describe('Capture every new issue comment, full body, attributed to its run and agent. Default off.'),
    issueDocumentCapture: z.boolean().optional().describe('Capture issue documents on create and update, once per revision. Default off.'),
  })
  .describe('Capture opt-ins of this binding (the plan: every capture is opt-in per binding).');

const bindingSchema = z.strictObject({
  key: bindingKeySchema,
  providerId: z
    .enum(['markdown', 'mem0', 'supermemory', 'agentcore'])
    .describe('markdown keeps memories as files in the plugin data folder; mem0, Supermemory and AgentCore are hosted (install their @memplane adapter beside the plugin).'),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The provider config, JSON. Credentials only as secret references, { "$secret": { "key": "<Paperclip secret reference>" } }, resolved through the host when the adapter is built; a plain credential is refused.'),
  enabled: z.boolean().optional().describe('Default true.'),
  hooks: hooksSchema.optional(),
});

/**
 * The plugin config of one company, as the operator edits it in Paperclip's plugin settings.
 * It has no field naming a company: the host scopes it, so one company's config can never bind
 * another company's memory.
 */
export const paperclipMemoryConfigSchema = z.strictObject({
  bindings: z
    .array(bindingSchema)
    .max(100)
    .optional()
    .describe('The memory bindings of this company. None: one markdown binding named "default".'),
  default: bindingKeySchema.optional().describe('The company default binding (its key).'),
  agents: z
    .record(identifierSchema, bindingKeySchema)
    .optional()
    .describe('Agent overrides: agent id to binding key.'),
});

/** The parsed config of one company. */
export type PaperclipMemoryConfig = z.output<typeof paperclipMemoryConfigSchema>;

/**
 * The JSON Schema Paperclip renders as the settings form (`instanceConfigSchema`), derived
 * from the zod schema the worker validates with, so the form and the worker never disagree.
 */
export function paperclipMemoryConfigJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(paperclipMemoryConfigSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return jsonSchema;
}
