import { MemoryError, parseInput, type MemoryAdapterCapabilities, type MemoryRecordHandle, type MemoryScope, type MemoryWarning } from '@memplane/core';
import { z } from 'zod';
import { ownCompanyOf } from '../actor/memory-actor';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import type { MemoryCallContext } from '../runtime/call-context';
import type { MemoryRuntime } from '../runtime/memory-runtime';
import { defineMemoryTool, describeSnippet, snippetData } from './define-memory-tool';
import { createJobsTool, createProfileTool } from './memory-capability-tools';
import * as schemas from './memory-tool-schemas';

/** The context a tool call runs in: the caller (usually the agent) and where it is working. */
export interface MemoryToolContext extends MemoryCallContext {
  /** The issue the agent is working on; notes record it. */
  issueId?: string;
  /** The project; notes record it. */
  projectId?: string;
}

/** What a tool handler returns: text for the model, structured data for the host. Handlers never throw for a memory error. */
export type MemoryToolResult =
  | { isError: false; content: string; data: unknown; operationId: string }
  | { isError: true; content: string; error: { code: string; message: string } };

/** One agent tool, mountable in any framework. */
export interface MemoryToolDefinition {
  /** The tool name of the plan, such as `memory.search`. */
  name: string;
  /** The same name for frameworks that refuse dots (`memory_search`). */
  functionName: string;
  /** When to use it, for the model. */
  description: string;
  /** The JSON Schema (draft 7) of the input. */
  inputSchema: Record<string, unknown>;
  /**
   * Validates the input and runs the tool for the caller. A memory error (a bad input included)
   * comes back as `isError`; a malformed `context` (the host's part) throws `MemoryValidationError`.
   */
  execute(input: unknown, context: MemoryToolContext): Promise<MemoryToolResult>;
}

/** What the tools need from the service. */
export interface MemoryToolHost {
  runtime(context: MemoryCallContext): MemoryRuntime;
}

const agentOf = (context: MemoryToolContext) => (context.actor.kind === 'agent' ? context.actor.agentId : undefined);

function compact(value: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

interface ReadNarrowing {
  reach?: 'company' | 'agent' | undefined;
  projectId?: string | undefined;
  issueId?: string | undefined;
}

/**
 * The scope of a read: the reach, and the project or issue the model narrowed to. A narrowing
 * value other than the one the host bound (`context.projectId`, `context.issueId`) is refused,
 * so the model can narrow within the bound scope and never step outside it.
 */
function readScope(context: MemoryToolContext, operation: string, input: ReadNarrowing): Partial<MemoryScope> {
  const agentId = agentOf(context);
  const scope: Partial<MemoryScope> = input.reach === 'agent' && agentId !== undefined ? { agentId } : {};
  for (const field of ['projectId', 'issueId'] as const) {
    const asked = input[field];
    if (asked === undefined) continue;
    const bound = context[field];
    if (bound !== undefined && bound !== asked) {
      throw new MemoryAccessDeniedError({
        operation,
        companyId: ownCompanyOf(context.actor) ?? context.companyId ?? '(unknown)',
        reason: `${field} "${asked}" is outside the bound scope (${field} "${bound}"); a read may only narrow within it`,
      });
    }
    scope[field] = asked;
  }
  return scope;
}

/**
 * What `memory.forget` tells the model: how many records were really forgotten and, when some
 * were not, how many and why. A record no one in the company has and another company's record
 * both read "not found"; "not yours" is a record of the company the agent may not change.
 */
function describeForget(handles: MemoryRecordHandle[], forgotten: number, warnings: MemoryWarning[]): string {
  const named = new Set(handles.map((handle) => handle.providerRecordId));
  const notFound = new Set<string>();
  const notYours = new Set<string>();
  for (const warning of warnings) {
    if (warning.type === 'not_found' && named.has(warning.providerRecordId)) notFound.add(warning.providerRecordId);
    else if (warning.type === 'scope_violation' && named.has(warning.providerRecordId)) notYours.add(warning.providerRecordId);
  }
  const skipped = Math.max(named.size - forgotten, 0);
  if (skipped === 0) return `Forgot ${forgotten} record(s).`;
  const reasons: string[] = [];
  if (notFound.size > 0) reasons.push(`${notFound.size} not found`);
  if (notYours.size > 0) reasons.push(`${notYours.size} not yours to forget`);
  const unexplained = skipped - notFound.size - notYours.size;
  if (unexplained > 0) reasons.push(`${unexplained} not forgotten by the provider`);
  return `Forgot ${forgotten} record(s). Skipped ${skipped}: ${reasons.join(', ')}.`;
}

/** Settings of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /**
   * The capabilities of the caller's binding (`binding.capabilities`, as the control plane's
   * `resolve` returns it). `memory.profile` is offered when `profile` is true, `memory.jobs`
   * when `listExtractionJobs` is. Default: neither.
   */
  capabilities?: MemoryAdapterCapabilities;
}

const optionsSchema = z.strictObject({ capabilities: z.looseObject({}).optional() }).optional();

/**
 * The agent tools of the plan (`memory.search`, `memory.note`, `memory.forget`,
 * `memory.correct`, `memory.list`, `memory.get`), plus `memory.profile` and `memory.jobs` where
 * `options.capabilities` has them, as definitions with JSON Schemas and handlers. Every call
 * goes through the runtime API, so the policy, the scope checks and the operation log apply to
 * tools like to any other caller; input a tool refuses is logged as a failed operation too.
 */
export function createMemoryTools(host: MemoryToolHost, options: MemoryToolsOptions = {}): MemoryToolDefinition[] {
  const capabilities = (parseInput(optionsSchema, options, 'memory tools options', 'options') ?? {}).capabilities as MemoryAdapterCapabilities | undefined;
  const tools = [
    defineMemoryTool(
      host,
      {
        name: 'memory.search',
        operation: 'query',
        description:
          'Search long-term memory. Use it when the task depends on earlier decisions, people, projects or long-running context that is not in the current issue thread.',
        schema: schemas.searchInputSchema,
      },
      (input, context) => {
        const scope = readScope(context, 'memory.search', input);
        return async (runtime) => {
          const bundle = await runtime.query({ query: input.query, topK: input.topK ?? 5, intent: 'answer', scope });
          const content = bundle.snippets.length === 0 ? 'No memories matched.' : bundle.snippets.map(describeSnippet).join('\n');
          return { content, data: { results: bundle.snippets.map(snippetData) }, operationId: bundle.operationId };
        };
      },
    ),
    defineMemoryTool(
      host,
      {
        name: 'memory.note',
        operation: 'record_upsert',
        description:
          'Remember a durable fact, preference or decision so it survives this run. Ordinary run residue is captured automatically; note only what matters later.',
        schema: schemas.noteInputSchema,
      },
      (input, context) => async (runtime) => {
        const runId = context.heartbeatRunId;
        const written = await runtime.upsertRecords({
          scope: compact({ agentId: agentOf(context), runId, issueId: context.issueId, projectId: context.projectId }),
          source: { kind: 'manual_note', ...compact({ issueId: context.issueId, runId }) },
          records: [{ text: input.text, metadata: { kind: input.kind ?? 'fact', ...(input.tags === undefined ? {} : { tags: input.tags }) } }],
        });
        const failure = written.failures?.[0];
        if (failure !== undefined) throw new MemoryError('MEMORY_API_CALL', { message: failure.message });
        const recordIds = (written.records ?? []).map(schemas.toToolRecordId);
        return { content: `Noted as ${recordIds.join(', ')}.`, data: { recordIds }, operationId: written.operationId };
      },
    ),
    defineMemoryTool(
      host,
      {
        name: 'memory.forget',
        operation: 'forget',
        description: 'Forget memories that are wrong or must not be kept. Ids come from memory.search or memory.list.',
        schema: schemas.forgetInputSchema,
      },
      (input) => {
        const handles = input.recordIds.map((recordId, index) => schemas.fromToolRecordId(recordId, `recordIds.${index}`));
        return async (runtime) => {
          const result = await runtime.forget({ handles });
          const warnings = result.warnings ?? [];
          return {
            content: describeForget(handles, result.forgotten, warnings),
            data: { recordIds: input.recordIds, forgotten: result.forgotten, warnings },
            operationId: result.operationId,
          };
        };
      },
    ),
    defineMemoryTool(
      host,
      {
        name: 'memory.correct',
        operation: 'correct',
        description:
          'Correct a memory when the user says prior context is wrong. The old text goes to its history; a provider that keeps history as versions answers with a new id, so use the id this tool returns from then on.',
        schema: schemas.correctInputSchema,
      },
      (input) => {
        const handle = schemas.fromToolRecordId(input.recordId, 'recordId');
        return async (runtime) => {
          const corrected = await runtime.correct({ handle, patch: { text: input.text, ...(input.reason === undefined ? {} : { reason: input.reason }) } });
          const recordId = schemas.toToolRecordId(corrected.record);
          return { content: `Corrected ${recordId}.`, data: { recordId }, operationId: corrected.operationId };
        };
      },
    ),
    defineMemoryTool(
      host,
      {
        name: 'memory.list',
        operation: 'list',
        description: 'Browse memories page by page, oldest first. Use memory.search to find something specific.',
        schema: schemas.listInputSchema,
      },
      (input, context) => {
        const scope = readScope(context, 'memory.list', input);
        return async (runtime) => {
          const page = await runtime.list({ limit: input.limit ?? 20, scope, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) });
          const lines = page.items.map(describeSnippet);
          if (page.nextCursor !== undefined) lines.push(`More: call memory.list with cursor "${page.nextCursor}".`);
          return {
            content: lines.length === 0 ? 'No memories.' : lines.join('\n'),
            data: { items: page.items.map(snippetData), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
            operationId: page.operationId,
          };
        };
      },
    ),
    defineMemoryTool(
      host,
      { name: 'memory.get', operation: 'get', description: 'Read one memory by id, with its source.', schema: schemas.getInputSchema },
      (input) => {
        const handle = schemas.fromToolRecordId(input.recordId, 'recordId');
        return async (runtime) => {
          const result = await runtime.get({ handle });
          return {
            content: result.snippet === null ? 'Not found.' : describeSnippet(result.snippet, 0).replace(/^1\. /, ''),
            data: { record: result.snippet === null ? null : snippetData(result.snippet) },
            operationId: result.operationId,
          };
        };
      },
    ),
  ];
  if (capabilities?.profile === true) tools.push(createProfileTool(host));
  if (capabilities?.listExtractionJobs === true) tools.push(createJobsTool(host));
  return tools;
}
