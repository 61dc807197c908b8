import { parseArgs } from 'node:util';
import { MemoryError, type MemoryScope } from '@memplane/core';

/** The options of every `memplane markdown` subcommand. */
export const markdownCliOptions = {
  root: { type: 'string' },
  company: { type: 'string' },
  agent: { type: 'string' },
  project: { type: 'string' },
  issue: { type: 'string' },
  run: { type: 'string' },
  subject: { type: 'string' },
  session: { type: 'string' },
  namespace: { type: 'string' },
  'top-k': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  full: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The parsed option values. */
export type MarkdownCliValues = ReturnType<typeof parseArgs<{ options: typeof markdownCliOptions; allowPositionals: true }>>['values'];

/** A mistake on the command line: exit code 2. */
export class MarkdownUsageError extends MemoryError {
  constructor(message: string) {
    super('MEMORY_VALIDATION', { message });
    this.name = 'MarkdownUsageError';
  }
}

/** Parses the arguments; throws `MarkdownUsageError` for an unknown option or a missing value. */
export function parseMarkdownArguments(argv: string[]): { values: MarkdownCliValues; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: markdownCliOptions, allowPositionals: true, strict: true });
  } catch (error) {
    throw new MarkdownUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The scope of `--company` and the scope options. */
export function scopeOf(values: MarkdownCliValues): MemoryScope {
  if (values.company === undefined) throw new MarkdownUsageError('--company is required.');
  const fields: Array<[keyof MemoryScope, string | undefined]> = [
    ['agentId', values.agent], ['projectId', values.project], ['issueId', values.issue], ['runId', values.run],
    ['subjectId', values.subject], ['sessionKey', values.session], ['namespace', values.namespace],
  ];
  return { companyId: values.company, ...Object.fromEntries(fields.filter(([, value]) => value !== undefined)) };
}

/** A positive integer option, or undefined when absent. */
export function positiveIntegerOf(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new MarkdownUsageError(`--${name} must be a positive integer.`);
  return parsed;
}
