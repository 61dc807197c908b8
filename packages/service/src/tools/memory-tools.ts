import { identifierSchema, MemoryError, parseInput, type MemoryScope, type MemorySnippet } from '@memplane/core';
import type { z } from 'zod';
import { ownCompanyOf } from '../actor/memory-actor';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { memoryCallContextSchema, type MemoryCallContext } from '../runtime/call-context';
import type { MemoryRuntime } from '../runtime/memory-runtime';
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

const toolContextSchema = memoryCallContextSchema.extend({ issueId: identifierSchema.optional(), projectId: identifierSchema.optional() });

const agentOf = (context: MemoryToolContext) => (context.actor.kind === 'agent' ? context.actor.agentId : undefined);
const callContextOf = ({ issueId: _issue, projectId: _project, ...context }: MemoryToolContext): MemoryCallContext => context;

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

function describeSnippet(snippet: MemorySnippet, index: number): string {
  const source = snippet.source === undefined ? '' : `, from ${snippet.source.kind}${snippet.source.issueId === undefined ? '' : ` ${snippet.source.issueId}`}`;
  const score = snippet.score === undefined ? '' : `, score ${Number(snippet.score.toPrecision(3))}`;
  return `${index + 1}. [${schemas.toToolRecordId(snippet.handle)}] ${snippet.text.replace(/\s+/g, ' ').trim()}${score}${source}`;
}

const snippetData = (snippet: MemorySnippet) => ({
  recordId: schemas.toToolRecordId(snippet.handle),
  text: snippet.text,
  ...(snippet.score === undefined ? {} : { score: snippet.score }),
  ...(snippet.source === undefined ? {} : { source: snippet.source }),
  ...(snippet.metadata === undefined ? {} : { metadata: snippet.metadata }),
  ...(snippet.createdAt === undefined ? {} : { createdAt: snippet.createdAt }),
});

function define<Schema extends z.ZodType>(
  name: string,
  description: string,
  schema: Schema,
  run: (input: z.output<Schema>, context: MemoryToolContext) => Promise<{ content: string; data: unknown; operationId: string }>,
): MemoryToolDefinition {
  return {
    name,
    functionName: name.replace('.', '_'),
    description,
    inputSchema: schemas.jsonSchemaOf(schema),
    async execute(input, untrustedContext) {
      // The context comes from the host, not the model: a malformed one is the host's bug, so it throws.
      const context = parseInput(toolContextSchema, untrustedContext, `${name} context`, 'context') as MemoryToolContext;
      try {
        const valid = parseInput(schema, input, `${name} input`);
        return { isError: false, ...(await run(valid, context)) };
      } catch (error) {
        // The model gets the error as a tool result it can act on; only non-memory failures propagate.
        if (!MemoryError.isInstance(error)) throw error;
        return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
      }
    },
  };
}

/**
 * The agent tools of the plan (`memory.search`, `memory.note`, `memory.forget`,
 * `memory.correct`, `memory.list`, `memory.get`), as definitions with JSON Schemas and
 * handlers. Every call goes through the runtime API, so the policy, the scope checks and the
 * operation log apply to tools like to any other caller.
 */
export function createMemoryTools(host: MemoryToolHost): MemoryToolDefinition[] {
  return [
    define(
      'memory.search',
      'Search long-term memory. Use it when the task depends on earlier decisions, people, projects or long-running context that is not in the current issue thread.',
      schemas.searchInputSchema,
      async (input, context) => {
        const bundle = await host.runtime(callContextOf(context)).query({
          query: input.query,
          topK: input.topK ?? 5,
          intent: 'answer',
          scope: readScope(context, 'memory.search', input),
        });
        const content = bundle.snippets.length === 0 ? 'No memories matched.' : bundle.snippets.map(describeSnippet).join('\n');
        return { content, data: { results: bundle.snippets.map(snippetData) }, operationId: bundle.operationId };
      },
    ),
    define(
      'memory.note',
      'Remember a durable fact, preference or decision so it survives this run. Ordinary run residue is captured automatically; note only what matters later.',
      schemas.noteInputSchema,
      async (input, context) => {
        const runId = context.heartbeatRunId;
        const written = await host.runtime(callContextOf(context)).upsertRecords({
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
    define(
      'memory.forget',
      'Forget memories that are wrong or must not be kept. Ids come from memory.search or memory.list.',
      schemas.forgetInputSchema,
      async (input, context) => {
        const handles = input.recordIds.map((recordId, index) => schemas.fromToolRecordId(recordId, `recordIds.${index}`));
        const forgotten = await host.runtime(callContextOf(context)).forget({ handles });
        return { content: `Forgot ${handles.length} record(s).`, data: { recordIds: input.recordIds, warnings: forgotten.warnings ?? [] }, operationId: forgotten.operationId };
      },
    ),
    define(
      'memory.correct',
      'Correct a memory when the user says prior context is wrong. The old text goes to its history; a provider that keeps history as versions answers with a new id, so use the id this tool returns from then on.',
      schemas.correctInputSchema,
      async (input, context) => {
        const handle = schemas.fromToolRecordId(input.recordId, 'recordId');
        const corrected = await host.runtime(callContextOf(context)).correct({
          handle,
          patch: { text: input.text, ...(input.reason === undefined ? {} : { reason: input.reason }) },
        });
        const recordId = schemas.toToolRecordId(corrected.record);
        return { content: `Corrected ${recordId}.`, data: { recordId }, operationId: corrected.operationId };
      },
    ),
    define(
      'memory.list',
      'Browse memories page by page, oldest first. Use memory.search to find something specific.',
      schemas.listInputSchema,
      async (input, context) => {
        const page = await host.runtime(callContextOf(context)).list({
          limit: input.limit ?? 20,
          scope: readScope(context, 'memory.list', input),
          ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
        });
        const lines = page.items.map(describeSnippet);
        if (page.nextCursor !== undefined) lines.push(`More: call memory.list with cursor "${page.nextCursor}".`);
        return {
          content: lines.length === 0 ? 'No memories.' : lines.join('\n'),
          data: { items: page.items.map(snippetData), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
          operationId: page.operationId,
        };
      },
    ),
    define('memory.get', 'Read one memory by id, with its source.', schemas.getInputSchema, async (input, context) => {
      const result = await host.runtime(callContextOf(context)).get({ handle: schemas.fromToolRecordId(input.recordId, 'recordId') });
      return {
        content: result.snippet === null ? 'Not found.' : describeSnippet(result.snippet, 0).replace(/^1\. /, ''),
        data: { record: result.snippet === null ? null : snippetData(result.snippet) },
        operationId: result.operationId,
      };
    }),
  ];
}
