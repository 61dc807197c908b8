import type { MemoryBindingOperationCounts, MemoryOperationEntry } from '@memplane/service';

/** Where the demo writes its story. */
export type DemoWriter = (text: string) => void;

/** Pads the cells of each column to the widest cell. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
}

/** A heading of the story. */
export function section(write: DemoWriter, title: string): void {
  write(`\n== ${title}\n`);
}

/** Indented lines. */
export function lines(write: DemoWriter, text: string[] | string): void {
  for (const line of Array.isArray(text) ? text : text.split('\n')) write(`  ${line}\n`);
}

function scopeText(entry: MemoryOperationEntry): string {
  const { companyId: _company, ...rest } = entry.scope;
  const parts = Object.entries(rest).map(([key, value]) => `${key.replace(/Id$/, '')}=${value}`);
  return parts.length === 0 ? '(company)' : parts.join(' ');
}

/** The operation log excerpt: one row per operation, oldest first. */
export function operationRows(entries: MemoryOperationEntry[]): string[] {
  const rows = [['#', 'operation', 'status', 'binding', 'actor', 'scope', 'source', 'hook', 'attribution', 'ms']];
  for (const entry of entries) {
    rows.push([
      entry.id.replace(/^op_0*/, ''),
      entry.operation,
      entry.status === 'succeeded' ? 'ok' : `FAILED ${entry.errorCode ?? ''}`,
      entry.bindingKey ?? '-',
      `${entry.actor.kind}:${entry.actor.id}`,
      scopeText(entry),
      entry.source?.kind ?? '-',
      entry.hookKind ?? '-',
      entry.attributionMode ?? '-',
      entry.latencyMs.toFixed(2),
    ]);
  }
  return table(rows);
}

/**
 * Why numbers are missing from a company's excerpt: `#` counts the operations of every company in
 * the service, and a company's log never shows another company's rows.
 */
export function missingRowsNote(companyId: string, entries: MemoryOperationEntry[]): string {
  const numbers = entries.map((entry) => Number(entry.id.replace(/^op_0*/, ''))).filter(Number.isSafeInteger);
  const shown = new Set(numbers);
  const missing: number[] = [];
  for (let number = 1; number <= Math.max(0, ...numbers); number += 1) if (!shown.has(number)) missing.push(number);
  if (missing.length === 0) return `# numbers every operation of the service; none is missing from ${companyId}'s log.`;
  return `# numbers every operation of the service: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} another company's, which ${companyId}'s log never shows.`;
}

/** The per-binding counts. */
export function countRows(companyId: string, counts: MemoryBindingOperationCounts[]): string[] {
  return counts.map((count) => {
    const operations = count.byOperation.map((entry) => `${entry.operation} ${entry.succeeded + entry.failed}`).join(', ');
    return `${companyId}/${count.bindingKey}: ${count.total} operations (${count.succeeded} ok, ${count.failed} failed; ${operations})`;
  });
}
