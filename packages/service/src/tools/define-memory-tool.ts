import { identifierSchema, MemoryError, MemoryValidationError, parseInput, type MemorySnippet } from '@memplane/core';
import { z } from 'zod';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { memoryCallContextSchema, type MemoryCallContext } from '../runtime/call-context';
import type { MemoryRuntime } from '../runtime/memory-runtime';
import type { MemoryRefusableOperation } from '../runtime/refused-call';
import * as schemas from './memory-tool-schemas';
import type { MemoryToolContext, MemoryToolDefinition, MemoryToolHost } from './memory-tools';

const toolContextSchema = memoryCallContextSchema.extend({ issueId: identifierSchema.optional(), projectId: identifierSchema.optional() });

/** The call context of a tool without the tool-only fields, for the runtime API. */
export const callContextOf = ({ issueId: _issue, projectId: _project, ...context }: MemoryToolContext): MemoryCallContext => context;

/** One snippet as every tool returns it. */
export const snippetData = (snippet: MemorySnippet): Record<string, unknown> => ({
  recordId: schemas.toToolRecordId(snippet.handle),
  text: snippet.text,
  ...(snippet.score === undefined ? {} : { score: snippet.score }),
  ...(snippet.source === undefined ? {} : { source: snippet.source }),
  ...(snippet.metadata === undefined ? {} : { metadata: snippet.metadata }),
  ...(snippet.createdAt === undefined ? {} : { createdAt: snippet.createdAt }),
});

/** One snippet as a line of text for the model. */
export function describeSnippet(snippet: MemorySnippet, index: number): string {
  const source = snippet.source === undefined ? '' : `, from ${snippet.source.kind}${snippet.source.issueId === undefined ? '' : ` ${snippet.source.issueId}`}`;
  const score = snippet.score === undefined ? '' : `, score ${Number(snippet.score.toPrecision(3))}`;
  return `${index + 1}. [${schemas.toToolRecordId(snippet.handle)}] ${snippet.text.replace(/\s+/g, ' ').trim()}${score}${source}`;
}

/** What a tool body produces once the runtime answered. */
export interface ToolOutcome {
  content: string;
  data: unknown;
  operationId: string;
}

/**
 * A tool body in two stages: the first reads the valid input and may refuse it (a record id
 * that is not one, a narrowing outside the bound scope) without touching the runtime; the
 * second calls the runtime, which logs its own operations.
 */
export type ToolBody<Input> = (input: Input, context: MemoryToolContext) => (runtime: MemoryRuntime) => Promise<ToolOutcome>;

// Field names of a refused input, as the log keeps them: the names only, bounded and printable.
// eslint-disable-next-line no-control-regex
const cleanName = (name: string) => name.replace(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g, '').slice(0, 128) || '(root)';

/**
 * The names of the fields zod refused, when the validation error's cause is zod's error;
 * undefined otherwise, and when the cause is a value a hostile input threw that cannot be read.
 */
function zodFieldNames(error: MemoryError): string[] | undefined {
  if (!MemoryValidationError.isInstance(error)) return undefined;
  try {
    if (!(error.cause instanceof z.ZodError)) return undefined;
    // An unknown key is reported on its parent object: name every one of them, not only the first.
    return error.cause.issues.flatMap((issue) => {
      const parent = issue.path.map(String);
      return issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...parent, key].join('.')) : [parent.join('.')];
    });
  } catch {
    return undefined;
  }
}

function refusedFields(error: MemoryError): string[] {
  const issues = MemoryValidationError.isInstance(error) ? error.issues : [];
  const names = zodFieldNames(error) ?? issues.map((issue) => issue.path);
  if (MemoryAccessDeniedError.isInstance(error)) names.push(...['projectId', 'issueId'].filter((field) => error.reason.startsWith(`${field} `)));
  const fields = [...new Set(names.map(cleanName))].slice(0, 20);
  return fields.length === 0 ? ['(root)'] : fields;
}

/**
 * Defines one agent tool: the strict input schema, the body, and the answer to a refusal. Input
 * the tool refuses before the runtime (the schema, a malformed record id, a narrowing outside
 * the bound scope) is logged through `logRefusedCall` as a failed operation of `operation`, so
 * a model that tries another company's id leaves a trace like any other failed call.
 */
export function defineMemoryTool<Schema extends z.ZodType>(
  host: MemoryToolHost,
  spec: { name: string; operation: MemoryRefusableOperation; description: string; schema: Schema },
  body: ToolBody<z.output<Schema>>,
): MemoryToolDefinition {
  const { name, operation, description, schema } = spec;
  return {
    name,
    functionName: name.replace('.', '_'),
    description,
    inputSchema: schemas.jsonSchemaOf(schema),
    async execute(input, untrustedContext) {
      // The context comes from the host, not the model: a malformed one is the host's bug, so it throws.
      const context = parseInput(toolContextSchema, untrustedContext, `${name} context`, 'context') as MemoryToolContext;
      const runtime = host.runtime(callContextOf(context));
      let call: (runtime: MemoryRuntime) => Promise<ToolOutcome>;
      try {
        call = body(parseInput(schema, input, `${name} input`), context);
      } catch (error) {
        if (!MemoryError.isInstance(error)) throw error;
        const refusedAs = MemoryAccessDeniedError.isInstance(error) ? 'MEMORY_SCOPE_VIOLATION' : MemoryValidationError.isInstance(error) ? 'MEMORY_VALIDATION' : undefined;
        if (refusedAs !== undefined) await runtime.logRefusedCall({ operation, via: name, code: refusedAs, fields: refusedFields(error) });
        return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
      }
      try {
        return { isError: false, ...(await call(runtime)) };
      } catch (error) {
        // The model gets the error as a tool result it can act on; only non-memory failures propagate.
        if (!MemoryError.isInstance(error)) throw error;
        return { isError: true, content: `${name} failed: ${error.message}`, error: { code: error.code, message: error.message } };
      }
    },
  };
}
