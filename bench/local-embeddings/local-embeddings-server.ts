import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { LocalEmbedder } from './local-embedder';

/** Settings of {@link startLocalEmbeddingsServer}. */
export interface LocalEmbeddingsServerSettings {
  /** The model served. */
  embedder: LocalEmbedder;
  /** The port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** The most texts one request may carry. Default 2048, OpenAI's limit. */
  maxInputs?: number;
  /** The longest text accepted, in characters. Default 100,000. */
  maxInputChars?: number;
  /** The largest request body, in bytes. Default 16 MiB. */
  maxBodyBytes?: number;
}

/** A listening server. */
export interface LocalEmbeddingsServer {
  /** The OpenAI-compatible base URL, such as `http://127.0.0.1:4711/v1` (what MEMPLANE_EMBEDDINGS_URL takes). */
  readonly baseURL: string;
  /** The bound port. */
  readonly port: number;
  /** The Node HTTP server. */
  readonly server: ServerType;
  /** Stops listening and waits for open requests. */
  close(): Promise<void>;
}

type OpenAIErrorType = 'invalid_request_error' | 'server_error';

/** OpenAI's error shape, so OpenAI clients report the message. */
function openAIError(c: Context, status: 400 | 403 | 404 | 413 | 415 | 500, type: OpenAIErrorType, message: string, param: string | null = null, code: string | null = null): Response {
  return c.json({ error: { message, type, param, code } }, status);
}

/** The request body of `POST /v1/embeddings`, limited by the settings. */
function requestSchema(maxInputs: number, maxInputChars: number) {
  const text = z.string().min(1, 'an input text is empty').max(maxInputChars, `an input text is longer than ${maxInputChars} characters`);
  return z.object({
    model: z.string().min(1),
    input: z.union([text, z.array(text).min(1, 'input is an empty list').max(maxInputs, `input has more than ${maxInputs} texts`)]),
    encoding_format: z.literal('float', { message: 'only encoding_format "float" is served' }).optional(),
    dimensions: z.number().int().positive().optional(),
    user: z.string().optional(),
  });
}

/**
 * Builds the Hono app: `POST /v1/embeddings` in OpenAI's request and response shape, and
 * `GET /v1/models`. Requests are refused before the model runs when anything is off (400, 404 for
 * another model, 413, 415); calls to the model run one at a time, split into batches of the
 * embedder's `maxBatch`; a model answer of the wrong count or length is a 500, never passed on.
 */
export function createLocalEmbeddingsApp(settings: LocalEmbeddingsServerSettings, allowedHosts: () => ReadonlySet<string>): Hono {
  const { embedder } = settings;
  const schema = requestSchema(settings.maxInputs ?? 2048, settings.maxInputChars ?? 100_000);
  const maxBodyBytes = settings.maxBodyBytes ?? 16 * 1024 * 1024;
  const app = new Hono();
  // One model call at a time: the benchmark's process shares few cores, and the model is not reentrant-safe by contract.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  // A page in a browser must not reach the model through a DNS name that resolves to loopback.
  app.use('*', async (c, next) => {
    if (!allowedHosts().has(c.req.header('host') ?? '')) return openAIError(c, 403, 'invalid_request_error', 'This server answers only requests addressed to 127.0.0.1 or localhost.');
    await next();
  });
  app.use('/v1/*', bodyLimit({ maxSize: maxBodyBytes, onError: (c) => openAIError(c, 413, 'invalid_request_error', `The request body is larger than ${maxBodyBytes} bytes.`) }));

  app.get('/v1/models', (c) => c.json({ object: 'list', data: [{ id: embedder.model, object: 'model', owned_by: 'local' }] }));

  app.post('/v1/embeddings', async (c) => {
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return openAIError(c, 415, 'invalid_request_error', 'Send the body as `Content-Type: application/json`.');
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return openAIError(c, 400, 'invalid_request_error', 'The body is not valid JSON.');
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue?.path.join('.') ?? null;
      return openAIError(c, 400, 'invalid_request_error', `${param === null || param === '' ? 'body' : param}: ${issue?.message ?? 'invalid'}`, param);
    }
    const request = parsed.data;
    if (request.model !== embedder.model) return openAIError(c, 404, 'invalid_request_error', `The model \`${request.model}\` does not exist; this server serves \`${embedder.model}\`.`, 'model', 'model_not_found');
    if (request.dimensions !== undefined && request.dimensions !== embedder.dimensions) {
      return openAIError(c, 400, 'invalid_request_error', `dimensions: ${embedder.model} returns ${embedder.dimensions} dimensions and cannot shorten them.`, 'dimensions');
    }
    const texts = typeof request.input === 'string' ? [request.input] : request.input;
    const vectors: number[][] = [];
    let tokens: number | undefined = 0;
    try {
      for (let start = 0; start < texts.length; start += embedder.maxBatch) {
        const batch = texts.slice(start, start + embedder.maxBatch);
        const result = await exclusive(() => embedder.embed(batch));
        const wrong = result.embeddings.length !== batch.length || result.embeddings.some((vector) => vector.length !== embedder.dimensions || !vector.every(Number.isFinite));
        if (wrong) return openAIError(c, 500, 'server_error', `${embedder.model} returned vectors of the wrong count, length or value for ${batch.length} texts of ${embedder.dimensions} dimensions.`);
        vectors.push(...result.embeddings);
        tokens = tokens === undefined || result.tokens === undefined ? undefined : tokens + result.tokens;
      }
    } catch (cause) {
      return openAIError(c, 500, 'server_error', `${embedder.model} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    return c.json({
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: embedder.model,
      ...(tokens === undefined ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
    });
  });

  app.notFound((c) => openAIError(c, 404, 'invalid_request_error', `No route ${c.req.method} ${c.req.path}.`));
  return app;
}

/** Starts the server on 127.0.0.1 (never another address) and resolves once it listens. */
export async function startLocalEmbeddingsServer(settings: LocalEmbeddingsServerSettings): Promise<LocalEmbeddingsServer> {
  let hosts: ReadonlySet<string> = new Set();
  const app = createLocalEmbeddingsApp(settings, () => hosts);
  const server = await new Promise<ServerType>((resolveListening, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: settings.port ?? 0 }, () => resolveListening(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    server,
    close: () =>
      new Promise<void>((resolveClosed, reject) => {
        server.close((error) => (error === undefined ? resolveClosed() : reject(error)));
        // Keep-alive connections would hold close() open until they time out.
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}
