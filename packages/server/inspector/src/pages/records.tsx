import { useState } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemorySnippet } from '../api/types';
import { ShortTime } from '../components/details-list';
import { ErrorBanner } from '../components/error-banner';
import { FilterBox } from '../components/filter-box';
import { Pager, useCursorPages } from '../components/pager';
import { BindingScopeForm, bindingScopeOf, bindingScopeParams } from '../components/scope-form';
import { SourceLinks } from '../components/source-links';
import { useInspector } from '../context';
import { navigate, routeHash, useRoute } from '../routing';
import { useAsync } from '../use-async';
import { RecordDetail } from './record-detail';

const preview = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);

/** The records of a binding and scope, a page at a time, each opening its detail. */
export function RecordsPage() {
  const { api, companyId } = useInspector();
  const route = useRoute();
  const chosen = bindingScopeOf(route.params);
  const chosenKey = JSON.stringify(chosen);
  const pages = useCursorPages(chosenKey);
  const [generation, setGeneration] = useState(0);
  const page = useAsync(
    () => endpoints(api, companyId).listRecords({ ...chosen, ...(pages.cursor === undefined ? {} : { cursor: pages.cursor }), limit: 20 }),
    [api, companyId, chosenKey, pages.cursor, generation],
  );
  const selectedId = route.params.get('record') ?? undefined;
  const selectedKey = route.params.get('providerKey') ?? undefined;
  const hrefOf = (snippet: MemorySnippet) =>
    routeHash(companyId, 'records', { ...bindingScopeParams(chosen), record: snippet.handle.providerRecordId, providerKey: snippet.handle.providerKey });

  return (
    <>
      <FilterBox title="Binding and scope" active={chosen.bindingKey !== undefined || Object.keys(chosen.scope).length > 0}>
        <BindingScopeForm
          key={chosenKey}
          label="Records of a binding and scope"
          submitLabel="Show records"
          initial={chosen}
          onSubmit={(value) => navigate(companyId, 'records', bindingScopeParams(value))}
        />
      </FilterBox>
      <ErrorBanner error={page.error} />
      <div className="split">
        <section aria-labelledby="records-title" className="grow">
          <h2 id="records-title">
            Records {page.data === undefined ? null : <span className="muted">through {page.data.bindingKey}</span>}
          </h2>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Text</th>
                  <th scope="col">Source</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {(page.data?.items ?? []).map((snippet) => (
                  <tr key={`${snippet.handle.providerKey}/${snippet.handle.providerRecordId}`} aria-current={snippet.handle.providerRecordId === selectedId ? 'true' : undefined}>
                    <td>
                      <a href={hrefOf(snippet)} className="record-link">
                        {preview(snippet.text)}
                      </a>
                    </td>
                    <td>
                      <SourceLinks source={snippet.source} scope={snippet.scope} />
                    </td>
                    <td>{snippet.scope?.agentId === undefined ? 'company' : `agent ${snippet.scope.agentId}`}</td>
                    <td>
                      <ShortTime iso={snippet.updatedAt ?? snippet.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {page.data !== undefined && page.data.items.length === 0 ? <p>No records in this scope.</p> : null}
          <Pager label="Records" pageNumber={pages.pageNumber} nextCursor={page.data?.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
        </section>
        {selectedId === undefined || selectedKey === undefined ? null : (
          <RecordDetail
            key={`${selectedKey}/${selectedId}`}
            bindingKey={page.data?.bindingKey ?? chosen.bindingKey}
            handle={{ providerKey: selectedKey, providerRecordId: selectedId }}
            closeHref={routeHash(companyId, 'records', bindingScopeParams(chosen))}
            onChanged={() => setGeneration(generation + 1)}
          />
        )}
      </div>
    </>
  );
}
