import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MemoryError, type MemoryScope } from '@memplane/core';
import { createMarkdownAdapter, type MarkdownAdapter } from './markdown-adapter';
import { createProgressBar } from './markdown-progress-bar';

/** Where a command writes; the same shape as `CommandOutput` of `@memplane/cli`. */
export interface MarkdownCommandOutput {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error (progress bars, errors). */
  stderr(text: string): void;
}

/** A `memplane markdown` command; the same shape as `MemplaneCommand` of `@memplane/cli`. */
export interface MarkdownCommand {
  /** `markdown`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** Usage text. */
  usage: string;
  /** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage error). */
  run(argv: string[], output: MarkdownCommandOutput): Promise<number>;
}

const usage = `memplane markdown <reindex|stats|query|list|get|import> --root DIR [options]

  reindex --root DIR [--full]                 re-read changed markdown files (--full: rebuild the index)
  stats   --root DIR [--json]                 counts of records, resources and files
  query   --root DIR --company ID [scope] [--top-k N] [--json] <text>
  list    --root DIR --company ID [scope] [--limit N] [--cursor C] [--json]
  get     --root DIR --company ID [scope] [--json] <record-id>
  import  --root DIR --company ID [scope] <file.jsonl>   one {"text", "summary"?, "metadata"?} per line

  scope options: --agent --project --issue --run --subject --session --namespace`;

const options = {
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
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

class UsageError extends MemoryError {
  constructor(message: string) {
    super('MEMORY_VALIDATION', { message });
  }
}

function scopeOf(values: Values): MemoryScope {
  if (values.company === undefined) throw new UsageError('--company is required.');
  const fields: Array<[keyof MemoryScope, string | undefined]> = [
    ['agentId', values.agent], ['projectId', values.project], ['issueId', values.issue], ['runId', values.run],
    ['subjectId', values.subject], ['sessionKey', values.session], ['namespace', values.namespace],
  ];
  return { companyId: values.company, ...Object.fromEntries(fields.filter(([, value]) => value !== undefined)) };
}

function numberOf(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a positive integer.`);
  return parsed;
}

async function runSubcommand(subcommand: string, values: Values, positionals: string[], adapter: MarkdownAdapter, output: MarkdownCommandOutput): Promise<number> {
  const print = (value: unknown, text: string) => output.stdout(`${values.json === true ? JSON.stringify(value, null, 2) : text}\n`);
  switch (subcommand) {
    case 'reindex': {
      if (values.full === true) {
        const records = adapter.rebuildIndex();
        print({ records }, `Rebuilt the index: ${records} records.`);
      } else {
        const report = adapter.reindex();
        print(report, `Re-read ${report.changed.length} changed files, dropped ${report.removed.length} removed files, ${report.problems.length} problems.`);
        for (const problem of report.problems) output.stderr(`${problem.file}:${problem.line}: ${problem.message}\n`);
      }
      return 0;
    }
    case 'stats': {
      const stats = adapter.stats();
      print(stats, `records ${stats.records}\nresources ${stats.resources}\nfiles ${stats.files}`);
      return 0;
    }
    case 'query': {
      const text = positionals.join(' ');
      if (text.trim() === '') throw new UsageError('query needs the query text.');
      const bundle = await adapter.query({ bindingKey: 'cli', scope: scopeOf(values), query: text, ...(values['top-k'] === undefined ? {} : { topK: numberOf(values['top-k'], 'top-k') }) });
      print(bundle.snippets, bundle.snippets.map((snippet) => `${snippet.score?.toFixed(3)}  ${snippet.handle.providerRecordId}  ${snippet.text.replace(/\s+/g, ' ')}`).join('\n'));
      return 0;
    }
    case 'list': {
      const page = await adapter.list({ bindingKey: 'cli', scope: scopeOf(values), ...(values.limit === undefined ? {} : { limit: numberOf(values.limit, 'limit') }), ...(values.cursor === undefined ? {} : { cursor: values.cursor }) });
      print(page, [...page.items.map((item) => `${item.handle.providerRecordId}  ${item.text.replace(/\s+/g, ' ')}`), ...(page.nextCursor === undefined ? [] : [`next: --cursor ${page.nextCursor}`])].join('\n'));
      return 0;
    }
    case 'get': {
      const [id] = positionals;
      if (id === undefined) throw new UsageError('get needs a record id.');
      const snippet = await adapter.get({ providerKey: adapter.key, providerRecordId: id }, scopeOf(values));
      if (snippet === null) {
        output.stderr(`No record ${id} in this scope.\n`);
        return 1;
      }
      print(snippet, `${snippet.handle.providerRecordId}\n${snippet.text}`);
      return 0;
    }
    case 'import': {
      const [file] = positionals;
      if (file === undefined) throw new UsageError('import needs a JSON lines file.');
      const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
      const records = lines.map((line) => JSON.parse(line) as { text: string; summary?: string; metadata?: Record<string, unknown> });
      const bar = createProgressBar((chunk) => output.stderr(chunk), 'import');
      let written = 0;
      for (let start = 0; start < records.length; start += 500) {
        const batch = records.slice(start, start + 500);
        written += (await adapter.upsertRecords({ bindingKey: 'cli', scope: scopeOf(values), records: batch })).records?.length ?? 0;
        bar.update(Math.min(start + 500, records.length), records.length);
      }
      bar.finish();
      print({ written }, `Imported ${written} records.`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown subcommand ${JSON.stringify(subcommand)}.`);
  }
}

/** `memplane markdown ...`: maintain and inspect a markdown root from the command line. */
export const markdownCommand: MarkdownCommand = {
  name: 'markdown',
  summary: 'Reindex, inspect, query and import a local markdown memory root.',
  usage,
  async run(argv, output) {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    } catch (error) {
      output.stderr(`${(error as Error).message}\n\nUsage: ${usage}\n`);
      return 2;
    }
    const [subcommand, ...positionals] = parsed.positionals;
    if (subcommand === undefined || parsed.values.root === undefined) {
      output.stderr(`${subcommand === undefined ? 'Missing subcommand.' : '--root is required.'}\n\nUsage: ${usage}\n`);
      return 2;
    }
    const bar = createProgressBar((chunk) => output.stderr(chunk), 'reindex');
    let adapter: MarkdownAdapter | undefined;
    try {
      adapter = createMarkdownAdapter({
        root: parsed.values.root,
        onProgress: (progress) => bar.update(progress.done, progress.total),
        onEvent: (event) => {
          if (event.type === 'index_rebuilt') {
            bar.finish();
            output.stderr(`Index rebuilt (${event.reason}): ${event.records} records in ${Math.round(event.durationMs)} ms.\n`);
          }
        },
      });
      const code = await runSubcommand(subcommand, parsed.values, positionals, adapter, output);
      bar.finish();
      return code;
    } catch (error) {
      bar.finish();
      output.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
      return error instanceof UsageError ? 2 : 1;
    } finally {
      adapter?.close();
    }
  },
};
