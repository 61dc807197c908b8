/** One recorded answer of the provider fake. */
export interface RecordedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

/**
 * Answers each distinct request (method, URL and body) with the response the fake gave the
 * first time. Replaying takes the network, the HTTP parser and the fake out of both variants,
 * so what is left is the SDK's and the adapter's own work, with far less noise within a run
 * than a real round trip. A repeated request never reaches the fake again, so it suits reads, such as the
 * timed calls; distinct writes, such as seeding the fake, still go through.
 */
export class ResponseReplay {
  private readonly recorded = new Map<string, RecordedResponse>();

  /** How many distinct requests were recorded. */
  get size(): number {
    return this.recorded.size;
  }

  /** The recorded response of `key`, or the one `record` fetches and keeps for next time. */
  async answer(key: string, record: () => Promise<RecordedResponse>): Promise<RecordedResponse> {
    const known = this.recorded.get(key);
    if (known !== undefined) return known;
    const fresh = await record();
    this.recorded.set(key, fresh);
    return fresh;
  }
}

function bodyKey(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  // Through the underlying buffer: the AWS SDK's request bodies warn when treated as strings, which Buffer.from(view) would do.
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  // Streams and forms cannot be keyed without consuming them; the benchmarks send JSON strings.
  throw new TypeError(`A replayed request needs a string or byte body, not ${Object.prototype.toString.call(body)}.`);
}

/**
 * A `fetch` that replays: the first request of each kind goes through `realFetch` (to the
 * provider fake) and is recorded; later ones get a new `Response` over the recorded
 * bytes. The signal is honoured only while recording: a replayed answer is immediate.
 */
export function replayingFetch(realFetch: typeof fetch, replay = new ResponseReplay()): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request?.url ?? String(input);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url} ${bodyKey(init?.body)}`;
    const recorded = await replay.answer(key, async () => {
      const response = await realFetch(input, init);
      return { status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
    });
    return new Response(recorded.body.slice(), { status: recorded.status, headers: recorded.headers });
  };
}

/** The parts of a smithy HTTP request and response the AWS replay reads. */
interface AwsHttpRequest {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}
interface AwsHttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: unknown;
}

async function readAll(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The same replay for an AWS SDK v3 client, as middleware at the end of the deserialize step:
 * it sees the signed request and the raw response. The first request of each kind goes to
 * the provider fake and is recorded; later ones get the recorded status, headers and
 * a fresh copy of the bytes, which the SDK's deserialiser reads like a collected stream.
 */
export function replayAwsResponses(client: { middlewareStack: { add: (...args: never[]) => void } }, replay = new ResponseReplay()): void {
  type Next = (args: { request: unknown }) => Promise<{ response: unknown; output?: unknown }>;
  const middleware = (next: Next) => async (args: { request: unknown }) => {
    const request = args.request as AwsHttpRequest;
    const key = `${request.method} ${request.path} ${JSON.stringify(request.query ?? {})} ${bodyKey(request.body)}`;
    const recorded = await replay.answer(key, async () => {
      const { response } = await next(args);
      const raw = response as AwsHttpResponse;
      return { status: raw.statusCode, headers: Object.entries(raw.headers), body: await readAll(raw.body) };
    });
    const response: AwsHttpResponse = { statusCode: recorded.status, headers: Object.fromEntries(recorded.headers), body: recorded.body.slice() };
    return { response, output: undefined };
  };
  (client.middlewareStack.add as (middleware: unknown, options: { step: string; priority: string; name: string }) => void)(middleware, {
    step: 'deserialize',
    priority: 'low',
    name: 'benchReplayMiddleware',
  });
}
