import { useMemo } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryActivityEntry, MemoryBinding } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { JsonBlock } from '../components/details-list';
import { Pager, useCursorPages } from '../components/pager';
import { useInspector } from '../context';
import { useAsync } from '../use-async';

const actorText = (entry: MemoryActivityEntry) => {
  const actor = entry.actor as unknown as Record<string, unknown>;
  return Object.entries(actor)
    .filter(([key]) => key !== 'kind')
    .map(([, value]) => String(value))
    .join(' ') || String(actor.kind);
};

/** Whether an activity entry is about this binding: the binding itself, or a target pointing at it. */
function concerns(entry: MemoryActivityEntry, binding: MemoryBinding): boolean {
  if (entry.subjectType === 'binding') return entry.subjectId === binding.id;
  if (entry.subjectType !== 'target') return false;
  const points = (state: unknown) => typeof state === 'object' && state !== null && (state as { bindingId?: unknown }).bindingId === binding.id;
  return points(entry.before) || points(entry.after);
}

/**
 * The binding's change history from the company activity log, one log page at a time (the log
 * is paged by the server, never loaded whole; a page may hold no entry of this binding).
 */
export function BindingHistory({ binding, onClose }: { binding: MemoryBinding; onClose: () => void }) {
  const { api, companyId } = useInspector();
  const pages = useCursorPages(binding.id);
  const page = useAsync(() => endpoints(api, companyId).activity(pages.cursor, 50), [api, companyId, pages.cursor]);
  const entries = useMemo(() => (page.data?.items ?? []).filter((entry) => concerns(entry, binding)), [page.data, binding]);
  return (
    <section className="panel" aria-labelledby="history-title">
      <div className="section-head">
        <h2 id="history-title">History of {binding.key}</h2>
        <button type="button" onClick={onClose}>
          Close history
        </button>
      </div>
      <ErrorBanner error={page.error} />
      <ol className="history">
        {entries.map((entry) => (
          <li key={entry.id}>
            <p>
              <time dateTime={entry.createdAt}>{entry.createdAt}</time> · <strong>{entry.action}</strong> by {actorText(entry)}
            </p>
            <details>
              <summary>Before and after</summary>
              <div className="two-columns">
                <JsonBlock label="Before" value={entry.before} />
                <JsonBlock label="After" value={entry.after} />
              </div>
            </details>
          </li>
        ))}
      </ol>
      {page.data !== undefined && entries.length === 0 ? <p>No change of this binding on this page of the activity log.</p> : null}
      <Pager label="Activity" pageNumber={pages.pageNumber} nextCursor={page.data?.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
    </section>
  );
}
