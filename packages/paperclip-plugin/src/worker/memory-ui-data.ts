import { identifierSchema, parseInput, type MemorySourceRef } from '@memplane/core';
import { MemoryBindingNotFoundError, toToolRecordId } from '@memplane/service';
import type { PluginContext } from '@paperclipai/plugin-sdk';
import { z } from 'zod';
import {
  memoryUiDataKeys,
  type UiIssueMemoryData,
  type UiOperation,
  type UiSettingsData,
  type UiSource,
} from '../memory-ui-contract';
import type { PluginMemoryService } from './plugin-memory-service';

// The host puts the company it authorised for the bridge call in `companyId` (over anything the
// UI sent) and may add its render environment; other fields are the UI's own and ignored.
const companyParamsSchema = z.object({ companyId: identifierSchema });
const issueParamsSchema = z.object({ companyId: identifierSchema, issueId: identifierSchema });

/** What the UI data handlers need: the worker's service, opened once, and the inspector to link to. */
export interface MemoryUiDataHost {
  service(): Promise<PluginMemoryService>;
  /** The memplane inspector's base URL for a company, when there is one (its configured one, else its http-mode server's). */
  inspectorBase?(companyId: string): Promise<string | undefined>;
}

/**
 * The inspector's operations page for one issue of one company (`#/{companyId}/operations?issueId=`,
 * the inspector's own route shape). Ids are encoded, so none can reshape the link.
 */
export function inspectorOperationsUrl(base: string, companyId: string, issueId: string): string {
  const url = new URL(base);
  url.hash = `/${encodeURIComponent(companyId)}/operations?${new URLSearchParams({ issueId }).toString()}`;
  return url.toString();
}

// A board member of the company looking at the page: the service's policy keeps them in it.
const viewer = (companyId: string) => ({ actor: { kind: 'company', companyId, userId: 'paperclip-board' } }) as const;

function sourceOf(source: MemorySourceRef | undefined): UiSource | undefined {
  if (source === undefined) return undefined;
  const { kind, issueId, commentId, documentKey, runId } = source;
  return {
    kind,
    ...(issueId === undefined ? {} : { issueId }),
    ...(commentId === undefined ? {} : { commentId }),
    ...(documentKey === undefined ? {} : { documentKey }),
    ...(runId === undefined ? {} : { runId }),
  };
}

/** The settings page data: bindings (config holds references only), targets by binding key, counts. */
export async function readSettingsData(service: PluginMemoryService, params: unknown): Promise<UiSettingsData> {
  const { companyId } = parseInput(companyParamsSchema, params, 'settings data request', 'params');
  const control = service.control(viewer(companyId));
  const [bindings, targets, counts] = await Promise.all([
    control.listBindings(),
    control.listTargets(),
    service.explorer(viewer(companyId)).countOperations(),
  ]);
  const keyOf = new Map(bindings.map((binding) => [binding.id, binding.key]));
  return {
    companyId,
    bindings: bindings.map((binding) => ({
      key: binding.key,
      providerId: binding.providerId,
      enabled: binding.enabled,
      hooks: { ...binding.hooks },
      config: binding.config,
      revision: binding.revision,
      updatedAt: binding.updatedAt,
    })),
    targets: targets.map((target) => ({
      targetType: target.targetType,
      ...(target.targetType === 'agent' ? { agentId: target.targetId } : {}),
      bindingKey: keyOf.get(target.bindingId) ?? '(deleted)',
    })),
    counts: counts.map(({ bindingKey, total, succeeded, failed }) => ({ bindingKey, total, succeeded, failed })),
  };
}

/** The issue tab data: the issue's operations, newest first, and the records written for it with their sources. */
export async function readIssueMemoryData(service: PluginMemoryService, params: unknown, inspectorBase?: string): Promise<UiIssueMemoryData> {
  const { companyId, issueId } = parseInput(issueParamsSchema, params, 'issue memory data request', 'params');
  const inspector = inspectorBase === undefined ? {} : { inspectorUrl: inspectorOperationsUrl(inspectorBase, companyId, issueId) };
  const page = await service.explorer(viewer(companyId)).listOperations({ issueId, limit: 50 });
  const operations: UiOperation[] = page.items.map((entry) => {
    const source = sourceOf(entry.source);
    return {
      id: entry.id,
      operation: entry.operation,
      status: entry.status,
      ...(entry.errorCode === undefined ? {} : { errorCode: entry.errorCode }),
      ...(entry.bindingKey === undefined ? {} : { bindingKey: entry.bindingKey }),
      ...(entry.providerId === undefined ? {} : { providerId: entry.providerId }),
      ...(entry.hookKind === undefined ? {} : { hookKind: entry.hookKind }),
      ...(entry.scope.agentId === undefined ? {} : { agentId: entry.scope.agentId }),
      ...(entry.heartbeatRunId === undefined ? {} : { runId: entry.heartbeatRunId }),
      ...(source === undefined ? {} : { source }),
      ...(entry.resultCount === undefined ? {} : { resultCount: entry.resultCount }),
      latencyMs: entry.latencyMs,
      createdAt: entry.createdAt,
    };
  });
  if ((await service.control(viewer(companyId)).listBindings()).length === 0) {
    return { issueId, operations, records: [], unbound: true, ...inspector };
  }
  try {
    const listed = await service.runtime(viewer(companyId)).list({ scope: { issueId }, limit: 50 });
    const records = listed.items.map((item) => {
      const source = sourceOf(item.source);
      return {
        recordId: toToolRecordId(item.handle),
        text: item.text,
        ...(source === undefined ? {} : { source }),
        ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt }),
      };
    });
    return { issueId, operations, records, unbound: false, ...inspector };
  } catch (error) {
    // A company whose default cannot be resolved (no target yet) still sees its operations.
    if (MemoryBindingNotFoundError.isInstance(error)) return { issueId, operations, records: [], unbound: true, ...inspector };
    throw error;
  }
}

/**
 * Registers the UI bridge handlers (`usePluginData` in the settings page and the issue tab).
 * Call it from `setup(ctx)`; it needs no capability beyond the service's own reads.
 */
export function registerMemoryUiData(ctx: Pick<PluginContext, 'data'>, host: MemoryUiDataHost): void {
  ctx.data.register(memoryUiDataKeys.settings, async (params) => readSettingsData(await host.service(), params));
  ctx.data.register(memoryUiDataKeys.issue, async (params) => {
    const { companyId } = parseInput(issueParamsSchema, params, 'issue memory data request', 'params');
    return readIssueMemoryData(await host.service(), params, await host.inspectorBase?.(companyId));
  });
}
