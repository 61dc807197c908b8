import { useState, type FormEvent } from 'react';
import { readSession } from '../api/client';
import type { InspectorSession } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { TextField } from '../components/field';

/** Asks for a bearer token and checks it with `GET /v1/session` before keeping it. */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (token: string, session: InspectorSession) => void; notice?: string | undefined }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const trimmed = token.trim();
      onSignedIn(trimmed, await readSession(trimmed));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>memplane inspector</h1>
      <p>Sign in with a token the operator issued (<code>memplane serve token issue</code>). It is kept in this tab only.</p>
      {notice === undefined ? null : (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form onSubmit={submit} aria-label="Sign in">
        <TextField label="Token" name="token" type="password" value={token} onChange={setToken} required autoFocus autoComplete="off" />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
      <ErrorBanner error={error} />
    </main>
  );
}
