/** One request the test server saw, recorded before any handler answered it. */
export interface RecordedCall {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The full URL, with the query string. */
  readonly url: string;
  /** The path of the URL, such as `/v1/memories/`. */
  readonly pathname: string;
  /** The query parameters. A parameter given more than once keeps its last value; `url` has them all. */
  readonly searchParams: Readonly<Record<string, string>>;
  /** The request headers, names in lower case. Repeated headers are joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, or undefined when the request had no body. */
  readonly bodyText: string | undefined;
  /** The body parsed as JSON, or undefined when there was no body or it was not JSON. */
  readonly bodyJson: unknown;
}

type Writable<Value> = { -readonly [Key in keyof Value]: Value[Key] };

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Starts recording a request. The returned call already carries method, URL and headers,
 * so it can be listed in request order at once; `bodyRead` settles when the body has been
 * read from a clone, leaving the original untouched for the handler that answers.
 */
export function startRecording(request: Request): { call: RecordedCall; bodyRead: Promise<void> } {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const call: Writable<RecordedCall> = {
    method: request.method.toUpperCase(),
    url: request.url,
    pathname: url.pathname,
    searchParams: Object.fromEntries(url.searchParams),
    headers,
    bodyText: undefined,
    bodyJson: undefined,
  };
  const bodyRead =
    request.body === null
      ? Promise.resolve()
      : request
          .clone()
          .text()
          .then(
            (text) => {
              call.bodyText = text;
              call.bodyJson = parseJson(text);
            },
            // A body that cannot be read (an aborted upload) is recorded as absent, not thrown.
            () => undefined,
          );
  return { call, bodyRead };
}
