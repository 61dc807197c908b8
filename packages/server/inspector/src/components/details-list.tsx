import type { ReactNode } from 'react';

/** A definition list of facts; values are rendered as text. */
export function DetailsList({ entries }: { entries: Array<[string, ReactNode]> }) {
  return (
    <dl className="details">
      {entries.map(([term, value]) => (
        <div key={term} className="details-row">
          <dt>{term}</dt>
          <dd>{value === undefined || value === null || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Any JSON value, pretty-printed as text. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A scope, field by field. */
export function scopeText(scope: Record<string, unknown> | undefined): string {
  if (scope === undefined) return '—';
  return Object.entries(scope)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' · ');
}

/** An ISO 8601 time, shortened to the minute for tables (the full value stays in `dateTime`). */
export function ShortTime({ iso }: { iso: string | undefined }) {
  if (iso === undefined) return <>—</>;
  return <time dateTime={iso}>{iso.replace('T', ' ').slice(0, 16)}</time>;
}
