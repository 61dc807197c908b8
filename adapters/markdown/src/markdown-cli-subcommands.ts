import { readFileSync } from 'node:fs';
import { memoryRecordWriteRequestSchema, parseInput, type MemoryScope } from '@memplane/core';
import type { MarkdownAdapter } from './markdown-adapter';
import type { MarkdownCliEvents } from './markdown-cli-events';
import { MarkdownUsageError, scopeOf, type MarkdownCliOptions, type MarkdownSubcommand } from './markdown-cli-program';

/** What a subcommand needs: the open adapter, the arguments, what opening reported, and output. */
export interface SubcommandRun {
  adapter: MarkdownAdapter;
  values: MarkdownCliOptions;
  positionals: string[];
  events: MarkdownCliEvents;
  stdout(text: string): void;
  /** Draws a progress bar on a terminal stderr; a no-op otherwise. */
  progress(label: string): { update(done: number, total: number): void; finish(): void };
  /** The records of `import`, read and validated before the root was opened. */
  importedRecords?: ImportedRecord[];
}

function printer(run: SubcommandRun) {
  return (value: unknown, text: string) => run.stdout(`${run.values.json === true ? JSON.stringify(value, null, 2) : text}\n`);
}

function reindex(run: SubcommandRun): number {
  const print = printer(run);
  if (run.values.full === true) {
    const records = run.adapter.rebuildIndex();
    print({ records, problems: run.events.problems }, `Rebuilt the index: ${records} records, ${run.events.problems.length} problems.`);
    return 0;
  }
  // Opening reconciled already; this catches what changed since, and the events hold both.
  run.adapter.reindex();
  const { rebuilt, changed, removed, problems } = run.events;
  const opening = rebuilt === undefined ? '' : `Rebuilt the index on opening (${rebuilt.reason}): ${rebuilt.records} records. `;
  print(run.events.toJSON(), `${opening}Re-read ${changed.size} changed files, dropped ${removed.size} removed files, ${problems.length} problems.`);
  return 0;
}

/** One record of an import file, as `upsertRecords` takes it. */
export type ImportedRecord = { text: string; summary?: string; metadata?: Record<string, unknown> };

/**
 * Reads and validates every line of an import file before the root is opened, so a bad line
 * (exit 2, naming the file, the line and the field) never creates a root or writes a batch.
 */
export function readImportFile(file: string, scope: MemoryScope): ImportedRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MarkdownUsageError(`import cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new MarkdownUsageError(`${file}:${index + 1}: not a JSON object.`);
    }
    try {
      parseInput(memoryRecordWriteRequestSchema, { bindingKey: 'cli', scope, records: [record] }, 'upsertRecords');
    } catch (error) {
      throw new MarkdownUsageError(`${file}:${index + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return [record as ImportedRecord];
  });
}

function importRecords(run: SubcommandRun, records: ImportedRecord[]): Promise<number> {
  return (async () => {
    const bar = run.progress('import');
    let written = 0;
    for (let start = 0; start < records.length; start += 500) {
      const batch = records.slice(start, start + 500);
      written += (await run.adapter.upsertRecords({ bindingKey: 'cli', scope: scopeOf(run.values), records: batch })).records?.length ?? 0;
      bar.update(Math.min(start + 500, records.length), records.length);
    }
    bar.finish();
    printer(run)({ written }, `Imported ${written} records.`);
    return 0;
  })();
}

/** Runs one subcommand over an open adapter; resolves to the exit code. */
export async function runMarkdownSubcommand(subcommand: MarkdownSubcommand, run: SubcommandRun, stderr: (text: string) => void): Promise<number> {
  const print = printer(run);
  const { adapter, values, positionals } = run;
  switch (subcommand) {
    case 'reindex':
      return reindex(run);
    case 'stats': {
      const stats = adapter.stats();
      print(stats, `records ${stats.records}\nresources ${stats.resources}\nfiles ${stats.files}`);
      return 0;
    }
    case 'query': {
      const text = positionals.join(' ');
      if (text.trim() === '') throw new MarkdownUsageError('query needs the query text.');
      const topK = values.topK;
      const bundle = await adapter.query({ bindingKey: 'cli', scope: scopeOf(values), query: text, ...(topK === undefined ? {} : { topK }) });
      print(bundle.snippets, bundle.snippets.map((snippet) => `${snippet.score?.toFixed(3)}  ${snippet.handle.providerRecordId}  ${snippet.text.replace(/\s+/g, ' ')}`).join('\n'));
      return 0;
    }
    case 'list': {
      const limit = values.limit;
      const page = await adapter.list({ bindingKey: 'cli', scope: scopeOf(values), ...(limit === undefined ? {} : { limit }), ...(values.cursor === undefined ? {} : { cursor: values.cursor }) });
      print(page, [...page.items.map((item) => `${item.handle.providerRecordId}  ${item.text.replace(/\s+/g, ' ')}`), ...(page.nextCursor === undefined ? [] : [`next: --cursor ${page.nextCursor}`])].join('\n'));
      return 0;
    }
    case 'get': {
      const [id] = positionals;
      if (id === undefined) throw new MarkdownUsageError('get needs a record id.');
      const snippet = await adapter.get({ providerKey: adapter.key, providerRecordId: id }, scopeOf(values));
      if (snippet === null) {
        stderr(`memplane markdown: no record ${id} in this scope.\n`);
        return 1;
      }
      print(snippet, `${snippet.handle.providerRecordId}\n${snippet.text}`);
      return 0;
    }
    case 'import': {
      const [file] = positionals;
      if (file === undefined) throw new MarkdownUsageError('import needs a JSON lines file.');
      return importRecords(run, run.importedRecords ?? readImportFile(file, scopeOf(values)));
    }
  }
}
