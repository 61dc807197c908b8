/**
 * Prints the Markdown table of every conformance rule, generated from the rules themselves.
 * With --write, updates the table between the rule-table markers of README.md instead.
 *
 *   npx tsx scripts/print-rule-table.ts [--write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRuleTable, replaceRuleTable } from '../src/rule-table';
import { allRules } from '../src/rules/index';

const table = renderRuleTable(allRules);
if (process.argv.includes('--write')) {
  const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
  writeFileSync(readmePath, replaceRuleTable(readFileSync(readmePath, 'utf8'), table));
  process.stdout.write(`Updated the rule table of README.md (${allRules.length} rules).\n`);
} else {
  process.stdout.write(`${table}\n`);
}
