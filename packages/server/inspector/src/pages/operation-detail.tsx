import { useEffect, useRef } from 'react';
import { endpoints } from '../api/endpoints';
import { DetailsList, JsonBlock, scopeText } from '../components/details-list';
import { ErrorBanner } from '../components/error-banner';
import { SourceLinks } from '../components/source-links';
import { useInspector } from '../context';
import { milliseconds } from './operations';
import { useAsync } from '../use-async';

/** The detail of one operation: scope, source backlink, usage, latency, error, warnings. */
export function OperationDetail({ operationId, closeHref }: { operationId: string; closeHref: string }) {
  const { api, companyId } = useInspector();
  const entry = useAsync(() => endpoints(api, companyId).operation(operationId), [api, companyId, operationId]);
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus follows the opened detail, so a keyboard user lands on it.
  useEffect(() => heading.current?.focus(), [operationId, entry.data]);
  const data = entry.data;
  return (
    <section className="panel detail" aria-labelledby="operation-detail-title" onKeyDown={(event) => event.key === 'Escape' && (window.location.hash = closeHref)}>
      <div className="section-head">
        <h2 id="operation-detail-title" tabIndex={-1} ref={heading}>
          Operation {operationId}
        </h2>
        <a href={closeHref} className="button-link">
          Close detail
        </a>
      </div>
      <ErrorBanner error={entry.error} />
      {data === undefined ? null : (
        <>
          <DetailsList
            entries={[
              ['Operation', data.operation],
              ['Status', data.status],
              ['When', data.createdAt],
              ['Binding', data.bindingKey === undefined ? undefined : `${data.bindingKey} (${data.providerId ?? '?'})`],
              ['Actor', scopeText(data.actor as unknown as Record<string, unknown>)],
              ['Scope', scopeText(data.scope as unknown as Record<string, unknown>)],
              ['Source', <SourceLinks key="source" source={data.source} scope={data.scope} />],
              ['Hook', data.hookKind === undefined ? undefined : `${data.hookKind} (${data.hookId ?? ''})`],
              ['Heartbeat run', data.heartbeatRunId],
              ['Latency', milliseconds(data.latencyMs)],
              ['Results', data.resultCount === undefined ? undefined : String(data.resultCount)],
              ['Dropped out of scope', String(data.droppedOutOfScope)],
              ['Error', data.errorCode === undefined ? undefined : `${data.errorCode}: ${data.errorMessage ?? ''}`],
              ['Cost event', data.costEventId],
            ]}
          />
          <h3>Usage</h3>
          {data.usage.length === 0 ? <p>The provider reported no usage.</p> : <JsonBlock label="Usage" value={data.usage} />}
          {data.warnings.length === 0 ? null : (
            <>
              <h3>Warnings</h3>
              <JsonBlock label="Warnings" value={data.warnings} />
            </>
          )}
          {data.details === undefined ? null : (
            <>
              <h3>Details</h3>
              <JsonBlock label="Details" value={data.details} />
            </>
          )}
        </>
      )}
    </section>
  );
}
