import type { MemoryAdapterCapabilities } from '@memplane/core';
import { unknownCompanyError } from '@memplane/host';
import { createMemoryTools, type MemoryToolContext, type MemoryToolDefinition, type MemoryToolHost } from '@memplane/service';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpBoundScope } from './mcp-bound-scope';
import { jsonSchemaOf, mcpOutputSchemas, type McpToolName } from './mcp-output-schemas';
import { VERSION } from './version';

/** What the server needs from the service: the runtime API, per caller. */
export type McpServiceHost = MemoryToolHost;

/** Settings of {@link createMemplaneMcpServer}. */
export interface MemplaneMcpServerOptions {
  /** The memory service every call goes through (policy, scope checks, log, counts). */
  service: McpServiceHost;
  /** The scope the session is bound to, from the host: flags, environment or a bearer token. Never from the model. */
  scope: McpBoundScope;
  /**
   * The capabilities of the binding the scope resolves to. `memory_profile` and the profile
   * resource are offered with `profile`, `memory_jobs` with `listExtractionJobs`. Default: none
   * of the optional tools.
   */
  capabilities?: MemoryAdapterCapabilities;
  /**
   * How the session treats its company while the service does not know it (no binding, no
   * binding history). Every tool but `memory_note` then answers a `MEMORY_NOT_FOUND` error and
   * calls nothing; `memory_note` runs `provision` (the zero-config default binding) once its
   * input is valid, just before it writes. Default: none, every call goes to the service as it is.
   */
  company?: McpCompanyProvisioning;
}

/** What a session does with a company the service does not know yet. */
export interface McpCompanyProvisioning {
  /** Whether the service knows the company (`isKnownCompany` of `@memplane/host`). */
  isKnown(): Promise<boolean>;
  /** Starts the company before its first write (the zero-config default binding). */
  provision(): Promise<void>;
}

/** The tool that may start a company: the only one that adds memory. */
const startsCompany = 'memory_note';

/** A host whose writes of memory start the company first; every other call is the service's own. */
function provisioningHost(service: McpServiceHost, company: McpCompanyProvisioning): McpServiceHost {
  return {
    runtime(context) {
      const runtime = service.runtime(context);
      return {
        ...runtime,
        async upsertRecords(request) {
          await company.provision();
          return runtime.upsertRecords(request);
        },
        async capture(request) {
          await company.provision();
          return runtime.capture(request);
        },
      };
    },
  };
}

/** The URI of the resource that serves the bound scope's profile. */
export const profileResourceUri = 'memplane://profile';

const instructions = [
  'Long-term memory for this agent, scoped by the host to one company and agent.',
  'Call memory_search when the task depends on earlier decisions, people, projects or long-running context that is not in the current thread.',
  'Call memory_note when a durable fact, preference or decision should survive this run; ordinary run residue is captured automatically.',
  'Call memory_correct when the user says prior context is wrong, and memory_forget for memories that must not be kept.',
].join(' ');

const annotationsOf: Record<McpToolName, Tool['annotations']> = {
  memory_search: { title: 'Search memory', readOnlyHint: true, openWorldHint: false },
  memory_list: { title: 'List memories', readOnlyHint: true, openWorldHint: false },
  memory_get: { title: 'Read a memory', readOnlyHint: true, openWorldHint: false },
  memory_profile: { title: 'Read the profile', readOnlyHint: true, openWorldHint: false },
  memory_jobs: { title: 'List extraction jobs', readOnlyHint: true, openWorldHint: false },
  memory_note: { title: 'Note a memory', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  memory_correct: { title: 'Correct a memory', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  memory_forget: { title: 'Forget memories', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

// The service names tools with dots (its internal ids); clients such as Claude Desktop refuse dots, so the wire never shows one.
const wireText = (text: string) => text.replace(/\bmemory\.(search|note|forget|correct|list|get|profile|jobs)\b/g, 'memory_$1');
const wireSchema = (schema: Record<string, unknown>) => JSON.parse(wireText(JSON.stringify(schema))) as Tool['inputSchema'];

/** The tool context of every call: the bound scope as the agent's own context, never anything from the model. */
export function toolContextOf(scope: McpBoundScope): MemoryToolContext {
  return {
    actor: { kind: 'agent', companyId: scope.companyId, agentId: scope.agentId },
    ...(scope.runId === undefined ? {} : { heartbeatRunId: scope.runId }),
    ...(scope.issueId === undefined ? {} : { issueId: scope.issueId }),
    ...(scope.projectId === undefined ? {} : { projectId: scope.projectId }),
  };
}

/** The client's self-given name and version, cleaned to what the log accepts (no control characters, bounded), or undefined. */
export function clientLabelOf(implementation: { name?: unknown; version?: unknown } | undefined): { name: string; version?: string } | undefined {
  // eslint-disable-next-line no-control-regex
  const clean = (value: unknown) => (typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g, '').trim().slice(0, 100) : '');
  const name = clean(implementation?.name);
  if (name === '') return undefined;
  const version = clean(implementation?.version);
  return version === '' ? { name } : { name, version };
}

/** The tools a binding with these capabilities gets, by wire name: the service's agent tools, `memory_profile` and `memory_jobs` included. */
export function toolsFor(service: McpServiceHost, capabilities: MemoryAdapterCapabilities = {}): Map<McpToolName, MemoryToolDefinition> {
  return new Map(createMemoryTools(service, { capabilities }).map((tool) => [tool.functionName as McpToolName, tool]));
}

/**
 * An MCP server (the SDK's low-level `Server`, connect it to any transport) whose tools are the
 * service's agent tools, bound to one scope. The tools' JSON Schemas are the service's, strict:
 * an argument the schema does not name (`companyId`, `agentId`) is refused, and every call runs
 * as the bound agent through the runtime API, so it is policy-checked, scope-checked and logged.
 */
export function createMemplaneMcpServer(options: MemplaneMcpServerOptions): Server {
  const { scope, company } = options;
  const service = company === undefined ? options.service : provisioningHost(options.service, company);
  const tools = toolsFor(service, options.capabilities);
  const offersProfile = options.capabilities?.profile === true;
  const server = new Server(
    { name: 'memplane', title: 'memplane memory', version: VERSION },
    { capabilities: { tools: {}, ...(offersProfile ? { resources: {} } : {}) }, instructions },
  );
  const context = toolContextOf(scope);
  // The client names itself in initialize; the log records it beside the agent, as a label only.
  const callContext = (): MemoryToolContext => {
    const client = clientLabelOf(server.getClientVersion());
    return client === undefined ? context : { ...context, client };
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.entries()].map(([name, tool]) => ({
      name,
      title: annotationsOf[name]?.title,
      description: wireText(tool.description),
      inputSchema: wireSchema(tool.inputSchema),
      outputSchema: jsonSchemaOf(mcpOutputSchemas[name]) as Tool['outputSchema'],
      annotations: annotationsOf[name],
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name as McpToolName;
    const tool = tools.get(name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    // A read, or a change of what a company holds, never starts a company: it answers not found and calls nothing.
    if (name !== startsCompany && company !== undefined && !(await company.isKnown())) {
      const unknown = unknownCompanyError(scope.companyId);
      return { isError: true, content: [{ type: 'text', text: `${name} failed: ${wireText(unknown.message)} [${unknown.code}]` }] };
    }
    // The service tool validates the arguments against its strict schema and answers a bad one as an error result naming the field.
    const result = await tool.execute(request.params.arguments ?? {}, callContext());
    if (result.isError) {
      return { isError: true, content: [{ type: 'text', text: `${wireText(result.content)} [${result.error.code}]` }] };
    }
    const structuredContent = { ...(result.data as Record<string, unknown>), operationId: result.operationId };
    return { content: [{ type: 'text', text: wireText(result.content) }], structuredContent };
  });

  if (offersProfile) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [
        {
          uri: profileResourceUri,
          name: 'profile',
          title: 'Memory profile',
          description: 'The stable preferences and facts remembered for this agent, as memory_profile returns them.',
          mimeType: 'text/plain',
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      if (request.params.uri !== profileResourceUri) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
      const profile = tools.get('memory_profile');
      const result = profile === undefined ? undefined : await profile.execute({}, callContext());
      if (result === undefined || result.isError) {
        throw new McpError(ErrorCode.InternalError, result === undefined ? 'The profile is not available' : wireText(result.content));
      }
      // The tool's text is the profile as text (the service's describeProfile): the summary, then one line per record.
      return { contents: [{ uri: profileResourceUri, mimeType: 'text/plain', text: result.content }] };
    });
  }
  return server;
}

