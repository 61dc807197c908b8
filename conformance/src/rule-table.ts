import type { MemoryAdapterCapabilities } from '@memplane/core';
import type { ConformanceOptions } from './conformance-options';
import type { ConformanceRule } from './conformance-rule';

const flags: ReadonlyArray<keyof MemoryAdapterCapabilities> = [
  'profile',
  'correction',
  'multimodal',
  'providerManagedExtraction',
  'asyncExtraction',
  'providerNativeBrowse',
  'listExtractionJobs',
  'retryExtractionJob',
  'explain',
  'metadataFilter',
];

const everyFlag = Object.fromEntries(flags.map((flag) => [flag, true])) as MemoryAdapterCapabilities;
// `requires` only reads the manifest; the options are passed for the signature's sake.
const noOptions = {} as ConformanceOptions;

/** When a rule runs, read back from its `requires` and `needs`: "always", "`correction`", "`asyncExtraction` off"... */
export function describeApplicability(rule: ConformanceRule): string {
  const conditions: string[] = [];
  const requires = rule.requires;
  if (requires !== undefined) {
    // A rule that runs with every flag on needs the flags whose removal skips it; a rule that runs
    // with none needs off the flags whose presence skips it.
    const runsWithEveryFlag = requires(everyFlag, noOptions) === undefined;
    const runsWithNoFlag = requires({}, noOptions) === undefined;
    for (const flag of flags) {
      if (runsWithEveryFlag && requires({ ...everyFlag, [flag]: false }, noOptions) !== undefined) conditions.push(`\`${flag}\``);
      if (runsWithNoFlag && requires({ [flag]: true }, noOptions) !== undefined) conditions.push(`\`${flag}\` off`);
    }
    // The fault rules of an operation run only while the manifest counts it as remote.
    if (runsWithEveryFlag && requires({ ...everyFlag, remoteOperations: [] }, noOptions) !== undefined) {
      conditions.push('the operation in `remoteOperations` (or that field absent)');
    }
  }
  for (const need of rule.needs ?? []) conditions.push(need === 'faults' ? '`faults`' : '`createPeerAdapter`');
  return conditions.length === 0 ? 'always' : conditions.join(' + ');
}

/** The Markdown table of every rule: id, what it checks, and when it runs. */
export function renderRuleTable(rules: ReadonlyArray<ConformanceRule>): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = rules.map((rule) => `| \`${rule.id}\` | ${escape(rule.description)} | ${describeApplicability(rule)} |`);
  return ['| Rule id | Checks | Runs when |', '|---|---|---|', ...rows].join('\n');
}

/** The markers around the generated table in the README. */
export const ruleTableMarkers = { start: '<!-- rule-table:start -->', end: '<!-- rule-table:end -->' } as const;

/** Replaces the text between the README's rule-table markers with the current table. */
export function replaceRuleTable(readme: string, table: string): string {
  const start = readme.indexOf(ruleTableMarkers.start);
  const end = readme.indexOf(ruleTableMarkers.end);
  if (start === -1 || end === -1 || end < start) return readme;
  return `${readme.slice(0, start + ruleTableMarkers.start.length)}\n${table}\n${readme.slice(end)}`;
}
