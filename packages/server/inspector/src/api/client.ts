import type { InspectorSession } from './types';

/** A failed call, with the problem details the server sent (RFC 9457) or what the browser saw. */
export class InspectorApiError extends Error {
  override readonly name = 'InspectorApiError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly title: string,
    readonly detail: string | undefined,
  ) {
    super(detail === undefined ? title : `${title}: ${detail}`);
  }
}

/** Query parameters: undefined and empty values are left out. */
export type QueryParameters = Record<string, string | number | undefined>;

const tokenKey = 'memplane.inspector.token';

/** The token lives in sessionStorage: it dies with the tab and is never written to a cookie. */
export const tokenStore = {
  read: (): string | undefined => sessionStorage.getItem(tokenKey) ?? undefined,
  write: (token: string) => sessionStorage.setItem(tokenKey, token),
  clear: () => sessionStorage.removeItem(tokenKey),
};

/** Builds `/v1/companies/{companyId}/{area}/{path}` with every dynamic part encoded. */
export function companyPath(companyId: string, area: 'memory' | 'control' | 'explorer', ...parts: string[]): string {
  return ['v1', 'companies', companyId, area, ...parts].map(encodeURIComponent).join('/');
}

function withQuery(path: string, query: QueryParameters | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

async function problemOf(response: Response): Promise<InspectorApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy page, an empty body): the status line is all there is.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return new InspectorApiError(response.status, text(body.code), text(body.title) ?? response.statusText ?? 'Request failed', text(body.detail));
}

/** Calls the API with the signed-in token; relative URLs, so the page talks only to the server that served it. */
export interface InspectorApi {
  get<Result>(path: string, query?: QueryParameters): Promise<Result>;
  send<Result>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Result>;
  session(): Promise<InspectorSession>;
}

/** Creates the client of one token; `onUnauthorized` runs on a 401 (a revoked or unknown token). */
export function createInspectorApi(token: string, onUnauthorized: () => void): InspectorApi {
  const call = async <Result>(method: string, path: string, body?: unknown): Promise<Result> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'memplane-client': 'inspector' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`./${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), credentials: 'omit' });
    if (response.status === 401) onUnauthorized();
    if (!response.ok) throw await problemOf(response);
    if (response.status === 204) return undefined as Result;
    return (await response.json()) as Result;
  };
  return {
    get: (path, query) => call('GET', withQuery(path, query)),
    send: (method, path, body) => call(method, path, body),
    session: () => call('GET', 'v1/session'),
  };
}

/** Checks a token without keeping it: the sign-in form's call. */
export async function readSession(token: string): Promise<InspectorSession> {
  return createInspectorApi(token, () => undefined).session();
}
