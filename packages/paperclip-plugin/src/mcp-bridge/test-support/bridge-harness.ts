import type { PluginAccessMember } from '@paperclipai/plugin-sdk';
import { createTestHarness, type TestHarness } from '@paperclipai/plugin-sdk/testing';
import manifest from '../../manifest';
import { memoryUiActionKeys, memoryUiDataKeys, type UiMcpBridgeData } from '../../memory-ui-contract';
import { parsePluginConfig } from '../../worker/paperclip-plugin-config';
import { hostCompanyConfig } from '../../worker/test-support/host-company-config';
import type { McpBridgeClientId } from '../mcp-bridge-clients';
import { registerMcpBridge } from '../mcp-bridge-handlers';
import type { McpBridgeChange } from '../mcp-bridge-installer';

/** The data folder the worker under test falls back to. */
export const pluginDataFolder = '/srv/paperclip/memplane';

const at = new Date('2026-11-24T10:00:00Z').toISOString();

/** A company member, as Paperclip's access API returns it. */
export function member(companyId: string, userId: string, membershipRole: string, status = 'active'): PluginAccessMember {
  return { id: `${companyId}-${userId}`, companyId, principalType: 'user', principalId: userId, status, membershipRole, grants: [], createdAt: at, updatedAt: at } as PluginAccessMember;
}

/** A harness with the shipped manifest and the bridge registered over `config`, and two companies with an owner each. */
export interface BridgeHarness {
  harness: TestHarness;
  /** Points the company's folder at a path (the host's configure). */
  configure(companyId: string, folderKey: 'agent-workspace' | 'codex-home', path?: string): Promise<void>;
  install(companyId: string, userId: string, clients?: McpBridgeClientId[], extra?: Record<string, unknown>): Promise<McpBridgeChange[]>;
  remove(companyId: string, userId: string, clients?: McpBridgeClientId[]): Promise<McpBridgeChange[]>;
  status(companyId: string): Promise<UiMcpBridgeData>;
  /** A file's text, or undefined when there is none. */
  read(companyId: string, folderKey: string, relativePath: string): Promise<string | undefined>;
  write(companyId: string, folderKey: string, relativePath: string, text: string): Promise<void>;
}

/** `config` is every company's saved config (each company has its own in Paperclip). */
export function bridgeHarness(config: Record<string, unknown> = {}): BridgeHarness {
  const harness = createTestHarness({ manifest });
  hostCompanyConfig(harness, { acme: config, globex: config });
  harness.seed({ accessMembers: [member('acme', 'ada', 'owner'), member('acme', 'vic', 'viewer'), member('acme', 'sam', 'admin', 'suspended'), member('globex', 'gus', 'admin')] });
  registerMcpBridge(harness.ctx, { companyConfig: async (companyId) => parsePluginConfig(await harness.ctx.config.get(companyId)), fallbackDataDirectory: pluginDataFolder });
  const act = async (key: string, companyId: string, userId: string, params: Record<string, unknown>) =>
    (await harness.performAction<{ changes: McpBridgeChange[] }>(key, params, { companyId, actor: { type: 'user', userId } })).changes;
  return {
    harness,
    configure: async (companyId, folderKey, path = `/agents/${companyId}/${folderKey}`) => {
      await harness.ctx.localFolders.configure({ companyId, folderKey, path });
    },
    install: (companyId, userId, clients, extra = {}) => act(memoryUiActionKeys.installMcpBridge, companyId, userId, { ...extra, ...(clients === undefined ? {} : { clients }) }),
    remove: (companyId, userId, clients) => act(memoryUiActionKeys.removeMcpBridge, companyId, userId, clients === undefined ? {} : { clients }),
    status: (companyId) => harness.getData<UiMcpBridgeData>(memoryUiDataKeys.mcpBridge, { companyId }),
    read: async (companyId, folderKey, relativePath) => {
      try {
        return await harness.ctx.localFolders.readText(companyId, folderKey, relativePath);
      } catch {
        return undefined;
      }
    },
    write: async (companyId, folderKey, relativePath, text) => {
      await harness.ctx.localFolders.writeTextAtomic(companyId, folderKey, relativePath, text);
    },
  };
}

/** Every file the bridge may write, for "nothing was written" checks. */
export const bridgeFiles = [
  ['agent-workspace', '.mcp.json'],
  ['agent-workspace', '.cursor/mcp.json'],
  ['codex-home', 'config.toml'],
] as const;

/** A snapshot of every bridge file of a company. */
export async function snapshot(bridge: BridgeHarness, companyId: string): Promise<Array<string | undefined>> {
  return Promise.all(bridgeFiles.map(([folderKey, path]) => bridge.read(companyId, folderKey, path)));
}
