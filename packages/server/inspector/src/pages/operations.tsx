import { useState, type FormEvent } from 'react';
import { endpoints, type OperationFilters } from '../api/endpoints';
import type { MemoryOperationEntry } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { SelectField, TextField } from '../components/field';
import { FilterBox } from '../components/filter-box';
import { Pager, useCursorPages } from '../components/pager';
import { useInspector } from '../context';
import { describeSource } from '../labels';
import { navigate, routeHash, useRoute } from '../routing';
import { useAsync } from '../use-async';
import { OperationDetail } from './operation-detail';

/** Latency as people read it: a tenth of a millisecond below 10 ms, whole milliseconds above. */
export const milliseconds = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

const filterNames = ['actor', 'actorKind', 'agentId', 'issueId', 'projectId', 'runId', 'sourceKind', 'operation', 'status', 'bindingKey', 'from', 'to'] as const;
const operationTypes = ['capture', 'record_upsert', 'query', 'list', 'get', 'forget', 'correct', 'profile', 'extraction_job_list', 'extraction_job_retry', 'extraction_job_refresh', 'retention_prune'];
const actorKinds = ['agent', 'company', 'operator', 'system'];
const sourceKinds = ['issue_comment', 'issue_document', 'issue', 'run', 'activity', 'manual_note', 'external_document'];

/** `datetime-local` values are the browser's local time; the server takes ISO 8601 with an offset. */
const toIso = (local: string) => {
  if (local === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};
const toLocal = (iso: string | null) => {
  if (iso === null || iso === '') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function FilterForm({ current, onApply }: { current: URLSearchParams; onApply: (filters: Record<string, string>) => void }) {
  const [values, setValues] = useState<Record<string, string>>(() => {
    const initial: Record<string, string> = {};
    for (const name of filterNames) initial[name] = name === 'from' || name === 'to' ? toLocal(current.get(name)) : (current.get(name) ?? '');
    return initial;
  });
  const set = (name: string) => (value: string) => setValues((previous) => ({ ...previous, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const applied: Record<string, string> = {};
    for (const name of filterNames) {
      const value = name === 'from' || name === 'to' ? toIso(values[name] ?? '') : values[name]?.trim();
      if (value !== undefined && value !== '') applied[name] = value;
    }
    // The kind narrows an actor; without one there is nothing to narrow.
    if (applied.actor === undefined) delete applied.actorKind;
    onApply(applied);
  };
  const clear = () => {
    setValues(Object.fromEntries(filterNames.map((name) => [name, ''])));
    onApply({});
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Operation filters">
      <TextField label="Actor" name="actor" value={values.actor ?? ''} onChange={set('actor')} />
      <SelectField label="Actor kind" name="actorKind" value={values.actorKind ?? ''} onChange={set('actorKind')} options={actorKinds} empty="any" />
      <TextField label="Scope agent" name="agentId" value={values.agentId ?? ''} onChange={set('agentId')} />
      <TextField label="Issue" name="issueId" value={values.issueId ?? ''} onChange={set('issueId')} />
      <TextField label="Project" name="projectId" value={values.projectId ?? ''} onChange={set('projectId')} />
      <TextField label="Run" name="runId" value={values.runId ?? ''} onChange={set('runId')} />
      <SelectField label="Source kind" name="sourceKind" value={values.sourceKind ?? ''} onChange={set('sourceKind')} options={sourceKinds} empty="any" />
      <SelectField label="Operation" name="operation" value={values.operation ?? ''} onChange={set('operation')} options={operationTypes} empty="any" />
      <SelectField label="Status" name="status" value={values.status ?? ''} onChange={set('status')} options={['succeeded', 'failed']} empty="any" />
      <TextField label="Binding" name="bindingKey" value={values.bindingKey ?? ''} onChange={set('bindingKey')} />
      <TextField label="From" name="from" type="datetime-local" value={values.from ?? ''} onChange={set('from')} />
      <TextField label="To" name="to" type="datetime-local" value={values.to ?? ''} onChange={set('to')} />
      <div className="actions">
        <button type="submit">Apply filters</button>
        <button type="button" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}

function OperationRow({ entry, href, selected }: { entry: MemoryOperationEntry; href: string; selected: boolean }) {
  return (
    <tr className={entry.status === 'failed' ? 'failed' : undefined} aria-current={selected ? 'true' : undefined}>
      <td>
        <a href={href} aria-label={`Open operation ${entry.id}`}>
          <time dateTime={entry.createdAt}>{entry.createdAt.replace('T', ' ').slice(5, 19)}</time>
        </a>
      </td>
      <td>{entry.operation}</td>
      <td>
        <span className={`status status-${entry.status}`}>{entry.status}</span>
        {entry.errorCode === undefined ? null : (
          <>
            <br />
            <code className="code">{entry.errorCode}</code>
          </>
        )}
      </td>
      <td>{entry.bindingKey ?? '—'}</td>
      <td>{`${entry.actor.kind} ${entry.actor.id}`}</td>
      <td>{entry.scope.agentId ?? '—'}</td>
      <td>{entry.scope.issueId ?? '—'}</td>
      <td>{describeSource(entry.source)}</td>
      <td className="number">{milliseconds(entry.latencyMs)}</td>
    </tr>
  );
}

/**
 * The operations explorer: every filter of the log, cursor pages, and the detail of one
 * operation. Actor is who called; Scope agent is the agent the call's scope names, which an
 * agent's company-wide search or a refused call does not.
 */
export function OperationsPage() {
  const { api, companyId } = useInspector();
  const route = useRoute();
  const filters: OperationFilters = {};
  for (const name of filterNames) {
    const value = route.params.get(name);
    if (value !== null && value !== '') filters[name] = value;
  }
  const filterKey = JSON.stringify(filters);
  const pages = useCursorPages(filterKey);
  const page = useAsync(() => endpoints(api, companyId).operations(filters, pages.cursor), [api, companyId, filterKey, pages.cursor]);
  const selected = route.params.get('op') ?? undefined;
  const withParams = (extra: Record<string, string | undefined>) => routeHash(companyId, 'operations', { ...(filters as Record<string, string>), ...extra });

  return (
    <>
      <FilterBox title="Filters" active={Object.keys(filters).length > 0}>
        <FilterForm key={filterKey} current={route.params} onApply={(applied) => navigate(companyId, 'operations', applied)} />
      </FilterBox>
      <ErrorBanner error={page.error} />
      {/* The opened operation comes first: full width above the list up to a wide window, where it sits beside it (styles.css). */}
      <div className={selected === undefined ? 'operations-layout' : 'operations-layout with-detail'}>
        {selected === undefined ? null : <OperationDetail operationId={selected} closeHref={withParams({})} />}
        <section aria-labelledby="operations-title" className="grow">
          <h2 id="operations-title">Operations {page.loading ? <span className="muted">(loading)</span> : null}</h2>
          <div className="table-scroll">
            <table aria-describedby="operations-title">
              <thead>
                <tr>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Status</th>
                  <th scope="col">Binding</th>
                  <th scope="col" title="Who called">Actor</th>
                  <th scope="col" title="The agent the scope names">Scope agent</th>
                  <th scope="col">Issue</th>
                  <th scope="col">Source</th>
                  <th scope="col">Latency</th>
                </tr>
              </thead>
              <tbody>
                {(page.data?.items ?? []).map((entry) => (
                  <OperationRow key={entry.id} entry={entry} selected={entry.id === selected} href={withParams({ op: entry.id })} />
                ))}
              </tbody>
            </table>
          </div>
          {page.data !== undefined && page.data.items.length === 0 ? <p>No operation matches these filters.</p> : null}
          <Pager label="Operations" pageNumber={pages.pageNumber} nextCursor={page.data?.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
        </section>
      </div>
    </>
  );
}
