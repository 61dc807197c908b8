import { InspectorApiError } from '../api/client';

/** Shows a failed call: the problem title, its code and detail. Text only, never markup. */
export function ErrorBanner({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  if (error instanceof InspectorApiError) {
    return (
      <div role="alert" className="error">
        <strong>{error.status === 403 ? 'Not allowed' : error.title}</strong>
        {error.code === undefined ? null : <code className="code">{error.code}</code>}
        {error.detail === undefined ? null : <p>{error.detail}</p>}
      </div>
    );
  }
  return (
    <div role="alert" className="error">
      <strong>Request failed</strong>
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}
