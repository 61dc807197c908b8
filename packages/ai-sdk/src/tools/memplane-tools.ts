import { MemoryValidationError, type MemoryAdapterCapabilities } from '@memplane/core';
import { createMemoryTools, type MemoryToolDefinition, type MemoryToolHost } from '@memplane/service';
import { jsonSchema, tool, type Tool } from 'ai';
import { parseAgent, parseClient, toolContextOf, type MemplaneAgent, type MemplaneClient } from '../memplane-agent';

/** The names of the tools on the wire: no dots, which Anthropic and OpenAI function names refuse. */
export type MemplaneToolName =
  | 'memory_search'
  | 'memory_note'
  | 'memory_forget'
  | 'memory_correct'
  | 'memory_list'
  | 'memory_get'
  | 'memory_profile'
  | 'memory_jobs';

/** What a memplane tool returns to the host; the model reads only `content` (see `toModelOutput`). */
export type MemplaneToolOutput =
  | { ok: true; content: string; data: unknown; operationId?: string }
  | { ok: false; content: string; error: { code: string; message: string } };

/** One memplane tool for the AI SDK. */
export type MemplaneTool = Tool<Record<string, unknown>, MemplaneToolOutput>;

/** The AI SDK tools `memplaneTools` returns, by wire name ({@link MemplaneToolName}); which ones depends on the options. */
export type MemplaneToolSet = Record<string, MemplaneTool>;

/** Settings of {@link memplaneTools}. */
export interface MemplaneToolsOptions {
  /**
   * Who the tools act for: a fixed agent, or a function of the call's `experimental_context`
   * (what the host passes to `generateText`/`streamText`), for one tool set serving many
   * agents. Never taken from the model's arguments.
   */
  agent: MemplaneAgent | ((experimentalContext: unknown) => MemplaneAgent | PromiseLike<MemplaneAgent>);
  /**
   * The capabilities of the agent's binding (`binding.capabilities`, as the control plane's
   * `resolve` returns it). `memory_profile` is offered when `profile` is true, `memory_jobs`
   * when `listExtractionJobs` is, as the MCP server does. Default: neither.
   */
  capabilities?: MemoryAdapterCapabilities;
  /** The program the calls come through, logged beside the agent on every operation. Default: `@memplane/ai-sdk` and its version. */
  client?: MemplaneClient;
  /** Offer only these tools (for a read-only agent: `['memory_search', 'memory_list', 'memory_get']`). Default: every supported one. */
  only?: MemplaneToolName[];
}

const readOnly = new Set<MemplaneToolName>(['memory_search', 'memory_list', 'memory_get', 'memory_profile', 'memory_jobs']);

// The service names its tools with dots (memory.search); the model only knows the wire names, so
// descriptions, schemas and answers that point to another tool use those, as the MCP server does.
const wireText = (text: string) => text.replace(/\bmemory\.(search|note|forget|correct|list|get|profile|jobs)\b/g, 'memory_$1');

function toAiTool(definition: MemoryToolDefinition, resolveAgent: (context: unknown) => Promise<MemplaneAgent>, client: MemplaneClient): MemplaneTool {
  return tool<Record<string, unknown>, MemplaneToolOutput>({
    description: wireText(definition.description),
    // The strict JSON Schema goes to the provider (additionalProperties: false); the service
    // validates again with zod and answers anything else, a company or agent id included, with an error result.
    inputSchema: jsonSchema<Record<string, unknown>>(JSON.parse(wireText(JSON.stringify(definition.inputSchema))) as Parameters<typeof jsonSchema>[0]),
    metadata: { memplane: { readOnly: readOnly.has(definition.functionName as MemplaneToolName), destructive: definition.functionName === 'memory_forget' } },
    async execute(input, { experimental_context: experimentalContext }) {
      const agent = await resolveAgent(experimentalContext);
      const result = await definition.execute(input, toolContextOf(agent, client));
      if (result.isError) return { ok: false, content: wireText(result.content), error: result.error };
      return { ok: true, content: wireText(result.content), data: result.data, ...(result.operationId === '' ? {} : { operationId: result.operationId }) };
    },
    toModelOutput: ({ output }) => (output.ok ? { type: 'text', value: output.content } : { type: 'error-text', value: output.content }),
  });
}

/**
 * The memory tools for the Vercel AI SDK (`ai@6`): `memory_search`, `memory_note`,
 * `memory_forget`, `memory_correct`, `memory_list`, `memory_get`, plus `memory_profile` and
 * `memory_jobs` where the binding supports them. The same tools and semantics as the MCP
 * server: every call goes through the service's runtime as the agent, so the policy, the scope
 * checks and the operation log apply, and the company and agent come from `options.agent`,
 * never from the model.
 *
 * @example
 * ```ts
 * const tools = memplaneTools(service, { agent: { companyId: 'acme', agentId: 'planner' } });
 * await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'What do we know about deploys?' });
 * ```
 */
export function memplaneTools(service: MemoryToolHost, options: MemplaneToolsOptions): MemplaneToolSet {
  if (options === null || typeof options !== 'object') {
    throw new MemoryValidationError({ target: 'memplaneTools options', issues: [{ path: 'options', message: 'must be an object' }] });
  }
  const client = parseClient(options.client);
  const fixed = typeof options.agent === 'function' ? undefined : parseAgent(options.agent);
  const agentFunction = typeof options.agent === 'function' ? options.agent : undefined;
  // A function's answer is checked on every call: a host bug must not become another company's memory.
  const resolveAgent = async (context: unknown) => fixed ?? parseAgent(await agentFunction!(context));

  // The service's agent tools, memory_profile and memory_jobs included where the capabilities have them.
  const definitions = createMemoryTools(service, options.capabilities === undefined ? {} : { capabilities: options.capabilities });

  const tools: MemplaneToolSet = {};
  for (const definition of definitions) {
    const name = definition.functionName as MemplaneToolName;
    if (options.only !== undefined && !options.only.includes(name)) continue;
    tools[name] = toAiTool(definition, resolveAgent, client);
  }
  return tools;
}
