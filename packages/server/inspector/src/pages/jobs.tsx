import { useState } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryExtractionJobEntry } from '../api/types';
import { useConfirm } from '../components/confirm-dialog';
import { ShortTime } from '../components/details-list';
import { ErrorBanner } from '../components/error-banner';
import { SelectField } from '../components/field';
import { Pager, useCursorPages } from '../components/pager';
import { SourceLinks } from '../components/source-links';
import { useInspector } from '../context';
import { navigate, routeHash, useRoute } from '../routing';
import { useAsync } from '../use-async';

const statuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** Extraction jobs: status, the hook and source that caused each, errors, retry where the provider offers it. */
export function JobsPage() {
  const { api, companyId } = useInspector();
  const calls = endpoints(api, companyId);
  const route = useRoute();
  const status = route.params.get('status') ?? '';
  const bindingKey = route.params.get('binding') ?? '';
  const [generation, setGeneration] = useState(0);
  const pages = useCursorPages(`${status}/${bindingKey}`);
  const jobs = useAsync(() => calls.extractionJobs({ status, bindingKey }, pages.cursor), [api, companyId, status, bindingKey, pages.cursor, generation]);
  const bindings = useAsync(() => calls.bindings(), [api, companyId]);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dialog, confirm] = useConfirm();
  const canRetry = (job: MemoryExtractionJobEntry) =>
    job.status === 'failed' && bindings.data?.find((binding) => binding.id === job.bindingId)?.capabilities.retryExtractionJob === true;

  const retry = async (job: MemoryExtractionJobEntry) => {
    if (!(await confirm(`Retry job ${job.id}?`, `The provider of ${job.bindingKey} runs the extraction again.`, 'Retry'))) return;
    setFailure(undefined);
    try {
      const result = await calls.retryJob(job.id);
      setNotice(`Job ${job.id} is ${result.job.status} again (retry ${result.job.retryCount}).`);
      setGeneration((value) => value + 1);
    } catch (error) {
      setFailure(error);
    }
  };
  const refresh = async () => {
    setFailure(undefined);
    try {
      const result = await calls.refreshJobs();
      setNotice(`Polled ${result.jobs.length} job${result.jobs.length === 1 ? '' : 's'}.`);
      setGeneration((value) => value + 1);
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <>
      {dialog}
      <form className="filters" aria-label="Job filters" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Status" name="status" value={status} options={statuses} empty="any" onChange={(value) => navigate(companyId, 'jobs', { status: value, binding: bindingKey })} />
        <SelectField
          label="Binding"
          name="binding"
          value={bindingKey}
          empty="any"
          options={(bindings.data ?? []).map((binding) => binding.key)}
          onChange={(value) => navigate(companyId, 'jobs', { status, binding: value })}
        />
        <div className="actions">
          <button type="button" onClick={() => void refresh()}>
            Poll providers now
          </button>
        </div>
      </form>
      {notice === undefined ? null : (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <ErrorBanner error={failure ?? jobs.error} />
      <div className="table-scroll">
        <table aria-label="Extraction jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Binding</th>
              <th scope="col">Hook</th>
              <th scope="col">Source</th>
              <th scope="col">Error</th>
              <th scope="col">Retries</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(jobs.data?.items ?? []).map((job) => (
              <tr key={job.id} className={job.status === 'failed' ? 'failed' : undefined}>
                <th scope="row">
                  <span className="id">{job.id}</span>
                  <br />
                  <small className="muted">
                    <ShortTime iso={job.updatedAt} />
                  </small>
                </th>
                <td>
                  <span className={`status status-${job.status}`}>{job.status}</span>
                </td>
                <td>{job.bindingKey}</td>
                <td>
                  {job.hookKind ?? 'direct capture'}
                  {job.operationId === undefined ? null : (
                    <>
                      <br />
                      <a href={routeHash(companyId, 'operations', { op: job.operationId })} className="id">
                        capture {job.operationId}
                      </a>
                    </>
                  )}
                </td>
                <td>
                  <SourceLinks source={job.source} scope={job.scope} />
                </td>
                <td className="error-text">{job.error ?? '—'}</td>
                <td className="number">{job.retryCount}</td>
                <td>
                  {canRetry(job) ? (
                    <button type="button" onClick={() => void retry(job)} aria-label={`Retry job ${job.id}`}>
                      Retry
                    </button>
                  ) : job.status === 'failed' ? (
                    <span className="muted">no retry for this provider</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {jobs.data !== undefined && jobs.data.items.length === 0 ? <p>No extraction job matches.</p> : null}
      <Pager label="Jobs" pageNumber={pages.pageNumber} nextCursor={jobs.data?.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
    </>
  );
}
