import { identifierSchema, MemoryError, parseInput } from '@memplane/core';
import { MemoryAccessDeniedError } from '@memplane/service';
import type { PluginContext } from '@paperclipai/plugin-sdk';
import { z } from 'zod';
import { memoryUiActionKeys, memoryUiDataKeys, type UiMcpBridgeData } from '../memory-ui-contract';
import type { PaperclipPluginConfig } from '../worker/paperclip-plugin-config';
import { bridgeStatus, installBridge, removeBridge, type McpBridgeChange } from './mcp-bridge-installer';
import { resolveBridgeLaunch } from './mcp-bridge-launch';

/** What the bridge handlers need from the worker. */
export interface McpBridgeHost {
  /** A company's config (Paperclip keeps one per company); throws before `setup`. */
  companyConfig(companyId: string): Promise<PaperclipPluginConfig>;
  /** The data folder the worker falls back to when the company's config names none (the plugin's option). */
  fallbackDataDirectory?: string;
}

type ActionContext = Parameters<Parameters<PluginContext['actions']['register']>[1]>[1];

/** The roles that may write into the company's agent folders. */
const adminRoles = new Set(['owner', 'admin']);

const statusParamsSchema = z.object({ companyId: identifierSchema });
const actionParamsSchema = z.object({ clients: z.array(z.enum(['claude-code', 'cursor', 'codex'])).min(1).max(3).optional() });

/** The launch, or throws `MemoryConfigurationError` saying why none can be written. */
async function launchOrThrow(host: McpBridgeHost, companyId: string) {
  return resolveBridgeLaunch(await host.companyConfig(companyId), host.fallbackDataDirectory);
}

async function launchOf(host: McpBridgeHost, companyId: string) {
  try {
    return await launchOrThrow(host, companyId);
  } catch (error) {
    if (MemoryError.isInstance(error)) return { refusal: error.message };
    throw error;
  }
}

/**
 * The company of an action, and proof its caller may change the company's agent folders: the
 * company the host authorised for the call (never one the page sends), and a signed-in user who is
 * an active owner or admin of it. Agents and system calls are refused: an agent must not rewrite
 * the tools its own runs load.
 */
async function authorisedCompany(ctx: PluginContext, context: ActionContext, operation: string): Promise<string> {
  const companyId = context.companyId ?? context.actor.companyId;
  if (companyId === null || companyId === '') {
    throw new MemoryAccessDeniedError({ operation, companyId: '(none)', reason: 'the host authorised no company for this call' });
  }
  const { actor } = context;
  if (actor.type !== 'user' || actor.userId === null) {
    throw new MemoryAccessDeniedError({ operation, companyId, reason: `only an owner or admin of the company may, not a${actor.type === 'agent' ? 'n agent' : ' system call'}` });
  }
  const members = await ctx.access.members.list({ companyId });
  const member = members.find((entry) => entry.principalType === 'user' && entry.principalId === actor.userId && entry.status === 'active');
  if (member === undefined || !adminRoles.has(member.membershipRole ?? '')) {
    throw new MemoryAccessDeniedError({ operation, companyId, reason: 'only an active owner or admin of the company may' });
  }
  return companyId;
}

/** The bridge's status for a company (the settings page's data). */
export async function readMcpBridgeData(ctx: PluginContext, host: McpBridgeHost, params: unknown): Promise<UiMcpBridgeData> {
  const { companyId } = parseInput(statusParamsSchema, params, 'mcp bridge data request', 'params');
  const launch = await launchOf(host, companyId);
  return { companyId, launch, clients: await bridgeStatus(ctx.localFolders, companyId, launch) };
}

/**
 * Registers the bridge's data key (`memplane.mcp-bridge`) and its two actions
 * (`memplane.mcp-bridge.install`, `.remove`). Needs the `local.folders` and `access.members.read`
 * capabilities.
 */
export function registerMcpBridge(ctx: PluginContext, host: McpBridgeHost): void {
  ctx.data.register(memoryUiDataKeys.mcpBridge, (params) => readMcpBridgeData(ctx, host, params));
  ctx.actions.register(memoryUiActionKeys.installMcpBridge, async (params, context): Promise<{ changes: McpBridgeChange[] }> => {
    const companyId = await authorisedCompany(ctx, context, 'mcp_bridge.install');
    const { clients } = parseInput(actionParamsSchema, params, 'mcp bridge install', 'params');
    return { changes: await installBridge(ctx.localFolders, companyId, await launchOrThrow(host, companyId), clients) };
  });
  ctx.actions.register(memoryUiActionKeys.removeMcpBridge, async (params, context): Promise<{ changes: McpBridgeChange[] }> => {
    const companyId = await authorisedCompany(ctx, context, 'mcp_bridge.remove');
    const { clients } = parseInput(actionParamsSchema, params, 'mcp bridge remove', 'params');
    return { changes: await removeBridge(ctx.localFolders, companyId, clients) };
  });
}
