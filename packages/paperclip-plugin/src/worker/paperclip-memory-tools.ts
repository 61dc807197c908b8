import { MemoryError } from '@memplane/core';
import { createMemoryTools, type MemoryToolContext, type MemoryToolDefinition } from '@memplane/service';
import type { ToolResult, ToolRunContext } from '@paperclipai/plugin-sdk';
import { memoryToolDeclarations } from '../manifest/memory-tool-declarations';
import { readRunHydration, writeRunHydration } from './paperclip-run-hydration';
import type { PaperclipWorkerHost } from './paperclip-worker-host';

/** The tools the plugin registers, by their plan names; on the wire they are `memory_search`, … (no dots). */
export const paperclipMemoryToolNames = ['memory.search', 'memory.note', 'memory.forget', 'memory.correct'] as const;

/** The service's definitions of the plugin's tools (descriptions and JSON Schemas for the manifest too). */
export function paperclipMemoryToolDefinitions(host: Pick<PaperclipWorkerHost, 'service'>): MemoryToolDefinition[] {
  const wanted = new Set<string>(paperclipMemoryToolNames);
  return createMemoryTools(host.service).filter((tool) => wanted.has(tool.name));
}

const errorText = (error: unknown) =>
  MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : 'The memory tool failed inside the plugin worker';

/**
 * Runs one tool for the run Paperclip names. The scope is the run's: the agent and the company
 * from the host's run context, the issue from the run's hydration, never from the parameters
 * (the strict input schemas refuse a `companyId` or `agentId` the model sends). Calls are inside
 * the run, so they are logged `included_in_run` and linked to it.
 */
export async function runPaperclipMemoryTool(
  host: PaperclipWorkerHost,
  tool: MemoryToolDefinition,
  params: unknown,
  run: ToolRunContext,
): Promise<ToolResult> {
  try {
    await host.company(run.companyId);
    const hydration = await readRunHydration(host.ctx, run.runId, run.companyId);
    const projectId = hydration?.projectId ?? (run.projectId === '' ? undefined : run.projectId);
    const context: MemoryToolContext = {
      actor: { kind: 'agent', companyId: run.companyId, agentId: run.agentId },
      heartbeatRunId: run.runId,
      client: { name: 'paperclip' },
      ...(hydration?.issueId === undefined ? {} : { issueId: hydration.issueId }),
      ...(projectId === undefined ? {} : { projectId }),
    };
    const result = await tool.execute(params, context);
    if (result.isError) return { error: `${result.error.code}: ${result.error.message}`, data: { error: result.error } };
    const data = { result: result.data, operationId: result.operationId };
    // The run's recalled context reaches the agent with its first search: the host has no way to put it in the prompt.
    if (tool.name === 'memory.search' && hydration !== undefined && hydration.preamble !== '' && !hydration.served && hydration.agentId === run.agentId) {
      await writeRunHydration(host.ctx, run.runId, { ...hydration, served: true });
      return { content: `${hydration.preamble}\n\n${result.content}`, data: { ...data, preamble: hydration.preamble } };
    }
    return { content: result.content, data };
  } catch (error) {
    return { error: errorText(error) };
  }
}

/** Registers the tools with Paperclip under their wire names, declared exactly as the manifest declares them (no dotted names). */
export function registerPaperclipMemoryTools(host: PaperclipWorkerHost): void {
  const declared = new Map(memoryToolDeclarations().map(({ name, ...declaration }) => [name, declaration]));
  for (const tool of paperclipMemoryToolDefinitions(host)) {
    const declaration = declared.get(tool.functionName);
    if (declaration === undefined) continue;
    host.ctx.tools.register(tool.functionName, declaration, (params, run) => runPaperclipMemoryTool(host, tool, params, run));
  }
}
