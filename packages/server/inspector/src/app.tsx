import { useEffect, useMemo, useState } from 'react';
import { createInspectorApi, tokenStore } from './api/client';
import { agentTokenRefusal, isAgentSession, type InspectorSession } from './api/types';
import { readBacklinkTemplates, writeBacklinkTemplates, type BacklinkTemplates } from './backlinks';
import { ErrorBanner } from './components/error-banner';
import { inspectorContext, type InspectorContext } from './context';
import { BindingsPage } from './pages/bindings';
import { JobsPage } from './pages/jobs';
import { OperationsPage } from './pages/operations';
import { QueryPage } from './pages/query';
import { RecordsPage } from './pages/records';
import { SettingsPage } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { UsagePage } from './pages/usage';
import { navigate, pages, routeHash, useRoute, type PageId } from './routing';
import { useAsync } from './use-async';

function describeActor(actor: InspectorSession['actor']): string {
  const text = (key: string) => (typeof actor[key] === 'string' ? (actor[key] as string) : undefined);
  if (actor.kind === 'operator') return `operator ${text('operatorId') ?? ''}`.trim();
  if (actor.kind === 'company') return `${text('role') ?? 'member'} of ${text('companyId') ?? ''}`;
  if (actor.kind === 'agent') return `agent ${text('agentId') ?? ''} of ${text('companyId') ?? ''}`;
  return actor.kind;
}

const pageComponents: Record<PageId, () => React.JSX.Element> = {
  bindings: BindingsPage,
  operations: OperationsPage,
  records: RecordsPage,
  query: QueryPage,
  jobs: JobsPage,
  usage: UsagePage,
  settings: SettingsPage,
};

/** An operator of every company opens one the server does not list (no token names it yet). */
function OpenCompany({ page }: { page: PageId }) {
  const [companyId, setCompanyId] = useState('');
  return (
    <form
      className="inline-form compact"
      aria-label="Open a company"
      onSubmit={(event) => {
        event.preventDefault();
        if (companyId.trim() !== '') navigate(companyId.trim(), page);
        setCompanyId('');
      }}
    >
      <label htmlFor="open-company">Open company</label>
      <input id="open-company" value={companyId} onChange={(event) => setCompanyId(event.target.value)} placeholder="company id" />
      <button type="submit">Open</button>
    </form>
  );
}

/** The signed-in shell: company picker, navigation, the page of the route. */
function Shell({ token, onSignOut }: { token: string; onSignOut: (notice?: string) => void }) {
  const api = useMemo(() => createInspectorApi(token, () => onSignOut('The token was refused (revoked or unknown). Sign in again.')), [token, onSignOut]);
  const session = useAsync(() => api.session(), [api]);
  const route = useRoute();
  const [templates, setTemplatesState] = useState(readBacklinkTemplates);
  // A token kept in this tab before agents were refused at sign-in: drop it, saying why.
  const agent = session.data !== undefined && isAgentSession(session.data);
  useEffect(() => {
    if (agent) onSignOut(agentTokenRefusal);
  }, [agent, onSignOut]);

  if (session.data === undefined || agent) {
    return (
      <main id="main" className="sign-in">
        {session.loading ? <p role="status">Checking the token…</p> : <ErrorBanner error={session.error} />}
      </main>
    );
  }
  const { companies } = session.data;
  const companyId = route.companyId ?? companies[0];
  const Page = pageComponents[route.page];
  const context: InspectorContext | undefined =
    companyId === undefined
      ? undefined
      : {
          api,
          session: session.data,
          companyId,
          templates,
          setTemplates: (next: BacklinkTemplates) => setTemplatesState(writeBacklinkTemplates(next)),
        };
  const title = pages.find((page) => page.id === route.page)?.title ?? '';

  return (
    <>
      <a className="skip" href="#main" onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <header className="top">
        <span className="brand">memplane inspector</span>
        <div className="field inline">
          <label htmlFor="company-picker">Company</label>
          <select
            id="company-picker"
            value={companyId ?? ''}
            onChange={(event) => navigate(event.target.value, route.page)}
          >
            {companies.map((company) => (
              <option key={company} value={company}>
                {company}
              </option>
            ))}
            {companyId !== undefined && !companies.includes(companyId) ? (
              <option value={companyId}>{session.data.allCompanies === true ? companyId : `${companyId} (not granted)`}</option>
            ) : null}
          </select>
        </div>
        {session.data.allCompanies === true ? <OpenCompany page={route.page} /> : null}
        <span className="who" aria-label="Signed in as">
          {describeActor(session.data.actor)}
        </span>
        <button type="button" onClick={() => onSignOut()}>
          Sign out
        </button>
      </header>
      <nav className="tabs" aria-label="Pages">
        {companyId === undefined
          ? null
          : pages.map((page) => (
              <a key={page.id} href={routeHash(companyId, page.id)} aria-current={page.id === route.page ? 'page' : undefined}>
                {page.title}
              </a>
            ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {context === undefined ? (
          <p>This token sees no company yet.</p>
        ) : (
          <inspectorContext.Provider value={context}>
            <Page key={`${context.companyId}/${route.page}`} />
          </inspectorContext.Provider>
        )}
      </main>
    </>
  );
}

/** The inspector: the sign-in form until a token is accepted, then the shell. */
export function App() {
  const [token, setToken] = useState(tokenStore.read);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const signOut = useMemo(
    () => (message?: string) => {
      tokenStore.clear();
      setToken(undefined);
      setNotice(message);
    },
    [],
  );
  if (token === undefined) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(accepted, session) => {
          tokenStore.write(accepted);
          setNotice(undefined);
          setToken(accepted);
          const first = session.companies[0];
          if (first !== undefined && !window.location.hash.startsWith('#/')) navigate(first, 'bindings');
        }}
      />
    );
  }
  return <Shell token={token} onSignOut={signOut} />;
}
