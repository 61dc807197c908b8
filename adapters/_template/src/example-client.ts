/**
 * A stand-in for the Example provider's official SDK, which does not exist.
 *
 * In a real adapter, delete this file and wrap the provider's official npm SDK, declared
 * as a peer dependency. Call endpoints the SDK does not wrap yet through the SDK's own
 * authenticated request method, never through a second hand-written HTTP client.
 */

/** How to reach the Example API. */
export interface ExampleClientSettings {
  /** The API key, sent as `x-api-key`. */
  apiKey: string;
  /** The base URL, without a trailing slash. */
  baseURL: string;
  /** The fetch implementation. Default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

/** One request to the Example API. */
export interface ExampleRequest {
  /** The HTTP method. */
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path below the base URL, such as `/v1/records`. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** The JSON body. */
  body?: unknown;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The Example API answered with a status other than 2xx. The SDK's own error type. */
export class ExampleApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The response body as text. */
  readonly body: string;
  /** The URL that was called. */
  readonly url: string;

  constructor(options: { status: number; headers: Headers; body: string; url: string; message: string }) {
    super(options.message);
    this.name = 'ExampleApiError';
    this.status = options.status;
    this.headers = options.headers;
    this.body = options.body;
    this.url = options.url;
  }
}

function readErrorMessage(body: string, status: number): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return `Example API error ${status}: ${parsed.error.message}`;
  } catch {
    // Not JSON: fall through to the generic message.
  }
  return `Example API error ${status}.`;
}

/**
 * A minimal Example API client: base URL, API key header, JSON in and out. Like most
 * SDKs it does not validate what the API returns, so callers must; a 2xx body that is not
 * JSON comes back as its raw text.
 */
export class ExampleClient {
  readonly #settings: ExampleClientSettings;

  constructor(settings: ExampleClientSettings) {
    this.#settings = settings;
  }

  /** Sends an authenticated request; resolves with the JSON body, throws `ExampleApiError` on non-2xx. */
  async request(request: ExampleRequest): Promise<unknown> {
    const url = new URL(`${this.#settings.baseURL}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { 'x-api-key': this.#settings.apiKey, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const fetchImplementation = this.#settings.fetch ?? globalThis.fetch;
    const response = await fetchImplementation(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new ExampleApiError({
        status: response.status,
        headers: response.headers,
        body: text,
        url: url.toString(),
        message: readErrorMessage(text, response.status),
      });
    }
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }

  /** `POST /v1/records`: creates up to 100 records in one call. */
  createRecords(body: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.request({ method: 'POST', path: '/v1/records', body, signal });
  }

  /** `GET /v1/records`: one keyset page of a tenant's records. */
  listRecords(query: ExampleRequest['query'], signal?: AbortSignal): Promise<unknown> {
    return this.request({ method: 'GET', path: '/v1/records', query, signal });
  }

  /** `GET /v1/records/{id}`: one record of a tenant. */
  getRecord(id: string, tenant: string, signal?: AbortSignal): Promise<unknown> {
    return this.request({ method: 'GET', path: `/v1/records/${encodeURIComponent(id)}`, query: { tenant }, signal });
  }

  /** `DELETE /v1/records/{id}`: deletes one record of a tenant. */
  deleteRecord(id: string, tenant: string, signal?: AbortSignal): Promise<unknown> {
    return this.request({ method: 'DELETE', path: `/v1/records/${encodeURIComponent(id)}`, query: { tenant }, signal });
  }

  /** `POST /v1/search`: the records of a tenant most relevant to a query. */
  search(body: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.request({ method: 'POST', path: '/v1/search', body, signal });
  }
}
