import { pluginManifestV1Schema, type PluginCapability, type PluginUiSlotType } from '@paperclipai/shared';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import manifest, { memplanePluginId } from './manifest';
import { memoryToolNames } from './manifest/memory-tool-declarations';
import { parsePluginConfig } from './worker/paperclip-plugin-config';
import { workerCapabilities } from './worker/test-support/paperclip-fixtures';

// The host pairs each slot type with a capability and refuses a manifest without it; the SDK's
// manifest schema does not check this, so the pairing (from the host's validator) is checked here.
const slotCapability: Partial<Record<PluginUiSlotType, PluginCapability>> = {
  page: 'ui.page.register',
  detailTab: 'ui.detailTab.register',
  taskDetailView: 'ui.detailTab.register',
  dashboardWidget: 'ui.dashboardWidget.register',
  sidebar: 'ui.sidebar.register',
  sidebarPanel: 'ui.sidebar.register',
  projectSidebarItem: 'ui.sidebar.register',
  routeSidebar: 'ui.sidebar.register',
  settingsPage: 'instance.settings.register',
  companySettingsPage: 'instance.settings.register',
};

const ajv = new Ajv({ strict: false, allErrors: true });
const toolSchema = (name: string) => {
  const tool = manifest.tools?.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new TypeError(`no tool ${name}`);
  return tool.parametersSchema;
};

describe('the plugin manifest', () => {
  it('passes the SDK manifest schema (pluginManifestV1Schema from @paperclipai/shared)', () => {
    const result = pluginManifestV1Schema.safeParse(manifest);
    expect(result.success ? [] : result.error.issues).toEqual([]);
    expect(manifest.id).toBe(memplanePluginId);
  });

  it('is refused by the same schema once a capability it needs is taken away', () => {
    for (const needed of ['agent.tools.register', 'skills.managed', 'local.folders'] as const) {
      const result = pluginManifestV1Schema.safeParse({ ...manifest, capabilities: manifest.capabilities.filter((c) => c !== needed) });
      expect(result.success, needed).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toContain(needed);
    }
  });

  it('declares the capability each UI slot needs on the host', () => {
    const slots = manifest.ui?.slots ?? [];
    expect(slots.map((slot) => slot.exportName).sort()).toEqual(['IssueMemoryTab', 'MemorySettingsPage']);
    for (const slot of slots) expect(manifest.capabilities, slot.id).toContain(slotCapability[slot.type]);
  });

  it('declares exactly the four memory tools, under names every model API accepts', () => {
    expect(manifest.tools?.map((tool) => tool.name)).toEqual([...memoryToolNames]);
    for (const tool of manifest.tools ?? []) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      // The service's dotted ids never leak into what the model reads.
      expect(JSON.stringify(tool)).not.toMatch(/memory\.(search|note|forget|correct|list|get)\b/);
    }
  });

  it('derives the tool schemas from the service tools: strict, and naming no company, agent or scope', () => {
    for (const name of memoryToolNames) {
      const schema = toolSchema(name);
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      const validate = ajv.compile(schema);
      for (const smuggled of ['companyId', 'agentId', 'scope', 'runId']) {
        expect(validate({ [smuggled]: 'company-b' }), `${name} ${smuggled}`).toBe(false);
      }
    }
    expect(Object.keys(toolSchema('memory_search').properties as object)).toEqual(['query', 'topK', 'reach', 'projectId', 'issueId']);
    expect(toolSchema('memory_note').required).toEqual(['text']);
  });

  it('tool schemas accept what the service tools accept and refuse out-of-range input (property)', () => {
    const validate = ajv.compile(toolSchema('memory_search'));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 2000 }), fc.integer({ min: -5, max: 30 }), (query, topK) => {
        expect(validate({ query, topK })).toBe(topK >= 1 && topK <= 20);
      }),
    );
    expect(validate({ query: '' })).toBe(false);
    expect(ajv.compile(toolSchema('memory_forget'))({ recordIds: [] })).toBe(false);
  });

  it('renders the worker config schema as the settings form: the form and the worker agree', () => {
    const form = ajv.compile(manifest.instanceConfigSchema ?? {});
    const good = {
      bindings: [{ key: 'default', providerId: 'markdown', hooks: { issueCommentCapture: true } }],
      default: 'default',
      agents: { planner: 'default' },
    };
    expect(form(good)).toBe(true);
    expect(() => parsePluginConfig(good)).not.toThrow();
    const http = { service: { mode: 'http', url: 'https://memory.example.com', token: { type: 'secret_ref', secretId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', version: 2 } }, inspectorUrl: 'https://memory.example.com', ...good };
    expect(form(http)).toBe(true);
    expect(() => parsePluginConfig(http)).not.toThrow();
    const bad = [
      { bindings: [{ key: 'default', providerId: 'markdown', extra: true }] },
      { bindings: [{ key: '' }] },
      { companies: { acme: { bindings: [] } } },
      { service: { mode: 'http', url: 'https://memory.example.com', token: { type: 'secret_ref', secretId: 'not-a-uuid' } } },
      { company: 'acme' },
      { service: { mode: 'http', url: 'https://memory.example.com', token: 'mps_plain' } },
      { service: { mode: 'remote', url: 'https://memory.example.com' } },
    ];
    for (const config of bad) {
      expect(form(config), JSON.stringify(config)).toBe(false);
      expect(() => parsePluginConfig(config)).toThrow();
    }
  });

  it('declares the MCP bridge folders, writable, and the form takes the bridge settings the worker takes', () => {
    expect(manifest.localFolders?.map((folder) => [folder.folderKey, folder.access])).toEqual([
      ['agent-workspace', 'readWrite'],
      ['codex-home', 'readWrite'],
    ]);
    expect(manifest.capabilities).toEqual(expect.arrayContaining(['local.folders', 'access.members.read']));
    const form = ajv.compile(manifest.instanceConfigSchema ?? {});
    for (const mcpBridge of [{ command: ['memplane-mcp'] }, { target: { dataDirectory: '/srv/memplane' } }, { target: { postgres: { urlVariable: 'MEMPLANE_POSTGRES_URL', schema: 'memplane' } } }]) {
      expect(form({ mcpBridge }), JSON.stringify(mcpBridge)).toBe(true);
      expect(() => parsePluginConfig({ mcpBridge })).not.toThrow();
    }
    for (const mcpBridge of [{ command: [] }, { target: { postgres: { urlVariable: 'postgres://u:p@h/db' } } }, { target: { url: 'x' } }]) {
      expect(form({ mcpBridge }), JSON.stringify(mcpBridge)).toBe(false);
      expect(() => parsePluginConfig({ mcpBridge })).toThrow();
    }
  });

  it('ships the managed skill with the plan agent UX rules, naming the wire tool names', () => {
    const skill = manifest.skills?.[0];
    expect(skill?.skillKey).toBe('memplane-memory');
    for (const name of memoryToolNames) expect(skill?.markdown).toContain(`\`${name}\``);
    expect(skill?.markdown).toMatch(/captured automatically/);
  });
});

describe('the manifest and the worker', () => {
  it('declares every capability the worker uses, so nothing the tests allow is refused by a real host', () => {
    for (const capability of workerCapabilities) expect(manifest.capabilities).toContain(capability);
  });
});
