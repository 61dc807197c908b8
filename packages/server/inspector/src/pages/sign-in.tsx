import { useState, type FormEvent } from 'react';
import { readSession } from '../api/client';
import { agentTokenRefusal, isAgentSession, type InspectorSession } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { TextField } from '../components/field';

/** Asks for a bearer token and checks it with `GET /v1/session` before keeping it; an agent's token is refused with the reason. */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (token: string, session: InspectorSession) => void; notice?: string | undefined }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setRefused(false);
    try {
      const trimmed = token.trim();
      const session = await readSession(trimmed);
      // Every page would answer "Not allowed": say why now, and keep nothing.
      if (isAgentSession(session)) {
        setRefused(true);
        setToken('');
        return;
      }
      onSignedIn(trimmed, session);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>memplane inspector</h1>
      <p>Sign in with a token the operator issued (<code>memplane token issue</code>). It is kept in this tab only.</p>
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
      {refused ? (
        <div role="alert" className="error">
          <strong>Agent tokens cannot sign in</strong>
          <p>{agentTokenRefusal}</p>
          <p>
            The operator issues them with <code>memplane token issue --operator &lt;id&gt;</code> or <code>--admin --company &lt;id&gt;</code>.
          </p>
        </div>
      ) : null}
    </main>
  );
}
