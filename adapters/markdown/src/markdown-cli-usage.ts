/** The usage of each `memplane markdown` subcommand, printed by `<subcommand> --help`. */
export const markdownSubcommandUsage = {
  reindex: `Usage: memplane markdown reindex --root DIR [--full] [--json]

Re-reads the markdown files that changed since the index last saw them and drops the records of
removed files. Opening the root already does this, so the report covers what opening reconciled
too, with every file that could not be parsed (file:line: problem, on stderr).
  --full    drop the index and rebuild it from every markdown file`,
  stats: `Usage: memplane markdown stats --root DIR [--json]

Counts the records, captured resources and markdown files of the root.`,
  query: `Usage: memplane markdown query --root DIR --company ID [scope options] [--top-k N] [--json] <text>

Searches the records of the scope for <text> and prints score, record id and text per line.`,
  list: `Usage: memplane markdown list --root DIR --company ID [scope options] [--limit N] [--cursor C] [--json]

Lists the records of the scope, a page at a time; the last line gives the cursor of the next page.`,
  get: `Usage: memplane markdown get --root DIR --company ID [scope options] [--json] <record-id>

Prints one record of the scope; exits 1 when the scope has no such record.`,
  import: `Usage: memplane markdown import --root DIR --company ID [scope options] <file.jsonl>

Writes one record per line of a JSON lines file: {"text", "summary"?, "metadata"?}. The only
subcommand that creates a root that does not exist yet.`,
} as const;

/** The subcommands of `memplane markdown`. */
export type MarkdownSubcommand = keyof typeof markdownSubcommandUsage;

/** Whether `name` is a subcommand of `memplane markdown`. */
export function isMarkdownSubcommand(name: string | undefined): name is MarkdownSubcommand {
  return name !== undefined && Object.hasOwn(markdownSubcommandUsage, name);
}

const scopeHelp = `Scope options: --agent ID --project ID --issue ID --run ID --subject ID --session KEY --namespace NAME`;

/** The full usage of `memplane markdown`, printed by `--help`. */
export const markdownUsage = `Usage: memplane markdown <subcommand> --root DIR [options]

Maintains, inspects and queries a local markdown memory root.

Subcommands:
  reindex --root DIR [--full] [--json]                                re-read changed files; report what opening reconciled
  stats   --root DIR [--json]                                         counts of records, resources and files
  query   --root DIR --company ID [scope] [--top-k N] [--json] <text> search the records of a scope
  list    --root DIR --company ID [scope] [--limit N] [--cursor C] [--json]
  get     --root DIR --company ID [scope] [--json] <record-id>
  import  --root DIR --company ID [scope] <file.jsonl>                one {"text", "summary"?, "metadata"?} per line

${scopeHelp}

Options:
  -h, --help      show this help (memplane markdown <subcommand> --help: that subcommand's)
  -v, --version   print the version of @memplane/markdown

Only import creates a root; every other subcommand refuses a root that does not exist (exit 2).
Progress bars go to stderr only when it is a terminal.
Exit codes: 0 done, 1 the work failed (such as get of an unknown record), 2 a usage or configuration error.`;

/** The usage of one subcommand, with the scope options where it takes them. */
export function subcommandUsage(subcommand: MarkdownSubcommand): string {
  const takesScope = subcommand !== 'reindex' && subcommand !== 'stats';
  return `${markdownSubcommandUsage[subcommand]}${takesScope ? `\n\n${scopeHelp}` : ''}`;
}
