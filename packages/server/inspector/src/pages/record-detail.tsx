import { useEffect, useRef, useState, type FormEvent } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryRecordHandle } from '../api/types';
import { useConfirm } from '../components/confirm-dialog';
import { DetailsList, JsonBlock, scopeText } from '../components/details-list';
import { ErrorBanner } from '../components/error-banner';
import { TextArea, TextField } from '../components/field';
import { SourceLinks } from '../components/source-links';
import { useInspector } from '../context';
import { useAsync } from '../use-async';

/** One record: text, source backlinks, scope, metadata; correct and forget after a confirmation. */
export function RecordDetail(props: { bindingKey: string | undefined; handle: MemoryRecordHandle; closeHref: string; onChanged: () => void }) {
  const { api, companyId } = useInspector();
  const calls = endpoints(api, companyId);
  const envelope = props.bindingKey === undefined ? {} : { bindingKey: props.bindingKey };
  const record = useAsync(() => calls.getRecord({ ...envelope, handle: props.handle }), [api, companyId, props.bindingKey, props.handle.providerRecordId]);
  const [dialog, confirm] = useConfirm();
  const [correcting, setCorrecting] = useState(false);
  const [text, setText] = useState('');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<unknown>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [props.handle.providerRecordId]);

  const snippet = record.data?.snippet ?? undefined;
  const correct = async (event: FormEvent) => {
    event.preventDefault();
    if (!(await confirm('Correct this record?', 'The provider replaces its text (or supersedes it, keeping history where it can).', 'Correct'))) return;
    setFailure(undefined);
    try {
      await calls.correct({ ...envelope, handle: props.handle, patch: { text, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) } });
      setCorrecting(false);
      setStatus('Corrected.');
      props.onChanged();
      record.reload();
    } catch (error) {
      setFailure(error);
    }
  };
  const forget = async () => {
    if (!(await confirm('Forget this record?', 'Its bytes are removed from the provider. This cannot be undone.', 'Forget'))) return;
    setFailure(undefined);
    try {
      const result = await calls.forget({ ...envelope, handles: [props.handle] });
      props.onChanged();
      // Say what really happened: a record the provider no longer has was not forgotten now.
      if (result.forgotten === 0) {
        const skipped = result.warnings?.find((warning) => warning.type === 'not_found' || warning.type === 'scope_violation');
        setStatus(skipped?.type === 'not_found' ? 'Not forgotten: the provider no longer has this record.' : 'Not forgotten: the provider skipped it.');
        return;
      }
      setStatus('Forgotten.');
      window.location.hash = props.closeHref;
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <section className="panel detail" aria-labelledby="record-detail-title">
      {dialog}
      <div className="section-head">
        <h2 id="record-detail-title" tabIndex={-1} ref={heading}>
          Record
        </h2>
        <a href={props.closeHref} className="button-link">
          Close detail
        </a>
      </div>
      {status === undefined ? null : (
        <p role="status" className="notice">
          {status}
        </p>
      )}
      <ErrorBanner error={failure ?? record.error} />
      {record.data !== undefined && snippet === undefined ? <p>This record is gone (forgotten, or not visible in this scope).</p> : null}
      {snippet === undefined ? null : (
        <>
          <p className="record-text">{snippet.text}</p>
          <DetailsList
            entries={[
              ['Summary', snippet.summary],
              ['Source', <SourceLinks key="source" source={snippet.source} scope={snippet.scope} />],
              ['Scope', scopeText(snippet.scope as Record<string, unknown> | undefined)],
              ['Handle', `${snippet.handle.providerKey} / ${snippet.handle.providerRecordId}`],
              ['Created', snippet.createdAt],
              ['Updated', snippet.updatedAt],
            ]}
          />
          {snippet.metadata === undefined ? null : <JsonBlock label="Metadata" value={snippet.metadata} />}
          <div className="actions">
            <button
              type="button"
              onClick={() => {
                setText(snippet.text);
                setCorrecting(true);
              }}
            >
              Correct
            </button>
            <button type="button" className="danger" onClick={() => void forget()}>
              Forget
            </button>
          </div>
          {correcting ? (
            <form onSubmit={correct} aria-label="Correct the record">
              <TextArea label="Corrected text" name="text" value={text} onChange={setText} required />
              <TextField label="Reason" name="reason" value={reason} onChange={setReason} />
              <div className="actions">
                <button type="submit" disabled={text.trim() === ''}>
                  Save correction
                </button>
                <button type="button" onClick={() => setCorrecting(false)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
