import type { PaperclipPluginManifestV1 } from '@paperclipai/plugin-sdk';
import { z } from 'zod';
import { mcpBridgeLocalFolders } from './manifest/mcp-bridge-folders';
import { memorySkill } from './manifest/memory-skill';
import { memoryToolDeclarations } from './manifest/memory-tool-declarations';
import { memoryUiSlots } from './manifest/memory-ui-slots';
import { VERSION } from './version';
import { paperclipPluginConfigSchema } from './worker/paperclip-plugin-config';

/** The plugin id Paperclip installs memplane under; tools are namespaced by it at runtime. */
export const memplanePluginId = 'memplane.memory';

// The settings form is the worker's own config schema as JSON Schema (the input side: fields with defaults may be left out).
// Paperclip keeps one such config per company and validates each against it.
function settingsFormSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(paperclipPluginConfigSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return schema;
}

/**
 * The plugin manifest (`PaperclipPluginManifestV1`): what the worker needs from the host and
 * nothing more. Each capability is there for one reason:
 * - `events.subscribe`: run, comment and document events drive hydration and capture;
 * - `issues.read`, `issue.comments.read`, `issue.documents.read`: the issue text to recall for, and
 *   the full comment and document bodies (events carry only snippets);
 * - `issue.documents.write`: the hydration preamble as an issue document, for agents without plugin tools;
 * - `agents.read`: the agent of a run, for its binding override;
 * - `plugin.state.read` / `.write`: the run-scoped preamble cache;
 * - `agent.tools.register`: the four memory tools;
 * - `skills.managed`, `companies.read`: the skill telling agents when to use them, installed in every company;
 * - `secrets.read-ref`: provider credentials and the Postgres connection string, by reference;
 * - `http.outbound`: hosted providers (mem0, Supermemory, AgentCore), and `memplane serve` in http mode;
 * - `metrics.write`: operation counts and latency;
 * - `instance.settings.register`, `ui.detailTab.register`: the settings page and the issue tab;
 * - `local.folders`, `access.members.read`: the MCP bridge, written into the agent folders a company
 *   configures, by an owner or admin of it (checked against the company's members).
 *
 * No capability writes Paperclip cost events: usage is kept in memplane's own cost ledger.
 */
const manifest: PaperclipPluginManifestV1 = {
  id: memplanePluginId,
  apiVersion: 1,
  version: VERSION,
  displayName: 'memplane memory',
  description:
    'Long-term memory for Paperclip agents through memplane: company bindings to markdown, mem0, Supermemory or AgentCore, recall when a run starts, capture of comments, documents and runs, memory tools, and an operation log.',
  author: 'memplane',
  categories: ['connector', 'automation', 'ui'],
  // No minimumHostVersion: Paperclip 2026.916.1 reports its own version as "0.0.0" to the install
  // check (upstream paperclipai/paperclip#8115), so any minimum refuses the install. apiVersion 1
  // is what the worker needs; the README names the host version it was run against.
  capabilities: [
    'events.subscribe',
    'issues.read',
    'issue.comments.read',
    'issue.documents.read',
    'issue.documents.write',
    'agents.read',
    'plugin.state.read',
    'plugin.state.write',
    'agent.tools.register',
    'skills.managed',
    'companies.read',
    'secrets.read-ref',
    'http.outbound',
    'metrics.write',
    'instance.settings.register',
    'ui.detailTab.register',
    'local.folders',
    'access.members.read',
  ],
  entrypoints: { worker: './dist/worker.js', ui: './dist/ui' },
  instanceConfigSchema: settingsFormSchema(),
  localFolders: [...mcpBridgeLocalFolders],
  tools: memoryToolDeclarations(),
  skills: [memorySkill],
  ui: { slots: [...memoryUiSlots] },
};

export default manifest;
