import { useState } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryContextBundle, MemoryExplanation, MemoryOperationReceipt } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { CheckField, SelectField, TextField } from '../components/field';
import { BindingScopeForm, type BindingScope } from '../components/scope-form';
import { SourceLinks } from '../components/source-links';
import { useInspector } from '../context';
import { routeHash } from '../routing';
import { useAsync } from '../use-async';

type QueryAnswer = MemoryContextBundle & MemoryOperationReceipt & { explanation?: MemoryExplanation };

function Explanation({ answer }: { answer: QueryAnswer }) {
  if (answer.explanation !== undefined) {
    if (answer.explanation.steps.length === 0) return <p>The provider of {answer.bindingKey} ({answer.providerId}) gave no trace for these snippets.</p>;
    // Step text is the provider's: React renders it as text, never as markup.
    return (
      <ol className="explain" aria-label="Retrieval trace">
        {answer.explanation.steps.map((step, index) => (
          <li key={index}>
            <strong>{step.stage}</strong> {step.handle.providerRecordId}
            {step.score === undefined ? null : <> · score {step.score.toFixed(3)}</>}
            {step.details === undefined ? null : <> · {step.details}</>}
          </li>
        ))}
      </ol>
    );
  }
  const unsupported = answer.warnings?.some((warning) => warning.type === 'unsupported' && warning.feature === 'explain') === true;
  return unsupported ? (
    <p>The provider of {answer.bindingKey} ({answer.providerId}) does not explain its retrieval.</p>
  ) : (
    <p>Tick Explain and run the query again to see how the provider retrieved these snippets.</p>
  );
}

/** Runs a query as an agent would and shows the snippets with their scores and backlinks. */
export function QueryPage() {
  const { api, companyId } = useInspector();
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState('10');
  const [intent, setIntent] = useState('');
  const [answer, setAnswer] = useState<QueryAnswer | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [explain, setExplain] = useState(false);
  const [bindingKey, setBindingKey] = useState('');
  const bindings = useAsync(() => endpoints(api, companyId).bindings(), [api, companyId]);
  const chosen = bindings.data?.find((candidate) => candidate.key === bindingKey);
  // With resolution the binding is unknown until the service resolves it; it warns if that one cannot explain.
  const canExplain = bindingKey === '' || chosen?.capabilities.explain === true;

  const run = async (target: BindingScope) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const count = Number(topK);
      setAnswer(
        await endpoints(api, companyId).query({
          ...target,
          query,
          ...(Number.isInteger(count) && count > 0 ? { topK: count } : {}),
          ...(intent === '' ? {} : { intent }),
          ...(explain && canExplain ? { explain: true } : {}),
        }),
      );
    } catch (error) {
      setAnswer(undefined);
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <BindingScopeForm label="Query" submitLabel={busy ? 'Running…' : 'Run query'} initial={{ scope: {} }} onBindingKeyChange={setBindingKey} onSubmit={(target) => void run(target)}>
        <TextField label="Query text" name="query" type="search" value={query} onChange={setQuery} required />
        <TextField label="Top K" name="topK" type="number" min={1} max={100} value={topK} onChange={setTopK} />
        <SelectField label="Intent" name="intent" value={intent} onChange={setIntent} options={['agent_preamble', 'answer', 'browse']} empty="default" />
        <CheckField label="Explain" name="explain" checked={explain && canExplain} disabled={!canExplain} onChange={setExplain} />
      </BindingScopeForm>
      <ErrorBanner error={failure} />
      {answer === undefined ? null : (
        <section aria-labelledby="answer-title" aria-live="polite">
          <h2 id="answer-title">
            {answer.snippets.length} snippet{answer.snippets.length === 1 ? '' : 's'} from {answer.bindingKey}
          </h2>
          <p className="muted">
            Logged as{' '}
            <a href={routeHash(companyId, 'operations', { op: answer.operationId })}>operation {answer.operationId}</a>
          </p>
          {answer.profileSummary === undefined ? null : <p className="record-text">{answer.profileSummary}</p>}
          <ol className="snippets">
            {answer.snippets.map((snippet) => (
              <li key={`${snippet.handle.providerKey}/${snippet.handle.providerRecordId}`} className="snippet">
                <p className="score">score {snippet.score === undefined ? '—' : snippet.score.toFixed(3)}</p>
                <p className="record-text">{snippet.text}</p>
                <SourceLinks source={snippet.source} scope={snippet.scope} />
              </li>
            ))}
          </ol>
          {answer.warnings === undefined || answer.warnings.length === 0 ? null : (
            <ul className="warnings" aria-label="Warnings">
              {answer.warnings.map((warning, index) => (
                <li key={index}>
                  <code>{warning.type}</code> {'feature' in warning ? warning.feature : ''} {'details' in warning ? warning.details : ''}
                  {'message' in warning ? warning.message : ''}
                </li>
              ))}
            </ul>
          )}
          <h3>Explain</h3>
          <Explanation answer={answer} />
        </section>
      )}
    </>
  );
}
