import { MemoryApiCallError, MemoryConfigurationError, MemoryInvalidResponseError, MemoryTimeoutError, type MemoryError } from '@memplane/core';
import type { MemoryCallContext } from '@memplane/service';
import type { z } from 'zod';
import { problemError } from './memplane-problem-errors';
import { createTokenScrubber } from './token-scrubber';

/** How the worker reaches the host's outbound HTTP (`ctx.http.fetch`). */
export type HostFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** What the HTTP client needs: a checked base URL, the resolved token, the deadline, the host's fetch. */
export interface HttpTransportSettings {
  /** The server's base URL, already checked (`serverUrlRefusal`). */
  baseUrl: string;
  /** The bearer token, resolved from its secret reference. Never logged, never put in an error. */
  token: string;
  /** The deadline of one call, in milliseconds. */
  timeoutMs: number;
  /** `ctx.http.fetch`. */
  fetch: HostFetch;
}

/** One call to the server. */
export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path under the base URL, such as `/v1/session`. */
  path: string;
  /** Query parameters; an array is sent as the key repeated. */
  query?: Record<string, string | number | readonly string[] | undefined>;
  body?: unknown;
  /** The caller's context: run, cost event, attribution mode and client label travel as headers. */
  context?: MemoryCallContext;
  /** What the call does, for errors (`memory.query`). */
  operation: string;
  /** The company the call is for, for access-denied errors. */
  companyId?: string;
  /** The agent the call runs as on the server (`Memplane-Agent-Id`), when the token may act as agents. */
  actingAgentId?: string;
}

/**
 * Paperclip's `ctx.http` refuses any URL whose host resolves only to loopback, private or
 * link-local addresses ("All resolved IPs for <host> are in private/reserved ranges"), with no
 * setting to allow them. Retrying cannot help, so this is a configuration error, not a network one.
 */
const hostRefusedPrivateAddress = /private\/reserved ranges/i;

/** The largest response the worker reads (a page of operations is far smaller). */
const maxResponseCharacters = 8 * 1024 * 1024;

/** Reads an answer up to the cap; a larger one is refused as soon as it passes the cap, not after it is held whole. */
async function readCapped(response: Response, call: HttpCall): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
    if (text.length > maxResponseCharacters) {
      await reader.cancel();
      throw new MemoryInvalidResponseError({ message: `memplane serve answered ${call.operation} with more than ${maxResponseCharacters} characters` });
    }
  }
}

/** The HTTP transport of the `memplane serve` client. */
export interface HttpTransport {
  /** Sends a call and returns the JSON body checked against `schema` (undefined for 204). */
  call<Schema extends z.ZodType>(call: HttpCall, schema: Schema): Promise<z.output<Schema>>;
  /** The origin of the server, for messages (no path, no credentials). */
  readonly origin: string;
}

function headersOf(token: string, call: HttpCall): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json, application/problem+json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const context = call.context;
  if (context?.heartbeatRunId !== undefined) headers['memplane-run-id'] = context.heartbeatRunId;
  if (context?.costEventId !== undefined) headers['memplane-cost-event-id'] = context.costEventId;
  if (context?.attributionMode !== undefined) headers['memplane-attribution-mode'] = context.attributionMode;
  headers['memplane-client'] = context?.client?.name ?? 'paperclip-plugin';
  if (call.actingAgentId !== undefined) headers['memplane-agent-id'] = call.actingAgentId;
  return headers;
}

function urlOf(baseUrl: string, call: HttpCall): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + call.path);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
  }
  return url.toString();
}

/**
 * Creates the transport. Every failure is a `MemoryError`: a server that cannot be reached
 * (`MEMORY_API_CALL`, retryable), a server the host's `ctx.http` will never reach because it
 * sits on a loopback or private address (`MEMORY_CONFIGURATION`, not retryable), one that does not answer in time (`MEMORY_TIMEOUT`), a
 * problem-details answer (mapped back to its code's class), and an answer that is not the JSON
 * the route promises (`MEMORY_INVALID_RESPONSE`). The token is sent in the `Authorization`
 * header only. Whatever the server or the host sends back is scrubbed of it before it reaches an
 * error: the raw text, every string and key of a parsed problem body (where JSON escapes are
 * already decoded), the host's failure message. An error that would still carry it in any field
 * or cause is replaced by one that keeps only the status.
 */
export function createHttpTransport(settings: HttpTransportSettings): HttpTransport {
  const origin = new URL(settings.baseUrl).origin;
  const scrubber = createTokenScrubber(settings.token);
  /** The error, or one without anything the server said when the token is still in it (a value split across fields, say). */
  const clean = (error: MemoryError, withheld: () => MemoryError): MemoryError => (scrubber.leaksInto(error) ? withheld() : error);

  /** Sends the call and reads the whole answer, both within the deadline (a server may stall after its headers). */
  async function send(call: HttpCall): Promise<{ response: Response; text: string }> {
    const url = urlOf(settings.baseUrl, call);
    // The host proxies ctx.http.fetch over JSON-RPC and drops an AbortSignal, so the deadline is kept here.
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new MemoryTimeoutError({ timeoutMs: settings.timeoutMs, operation: `${call.operation} on memplane serve` }));
      }, settings.timeoutMs);
    });
    try {
      const init: RequestInit = { method: call.method, headers: headersOf(settings.token, call), redirect: 'manual', signal: controller.signal };
      if (call.body !== undefined) init.body = JSON.stringify(call.body);
      const answered = settings.fetch(url, init).then(async (response) => ({ response, text: await readCapped(response, call) }));
      return await Promise.race([answered, deadline]);
    } catch (error) {
      if (MemoryTimeoutError.isInstance(error) || MemoryInvalidResponseError.isInstance(error)) throw error;
      // The host's message is kept, scrubbed; the host's error itself is not, as it is not scrubbed.
      const reason = error instanceof Error ? scrubber.text(error.message) : 'unknown error';
      const unreachable = () => new MemoryApiCallError({ message: `memplane serve at ${origin} could not be reached (${call.operation})`, url: `${origin}${call.path}`, isRetryable: true });
      if (hostRefusedPrivateAddress.test(reason)) {
        throw clean(
          new MemoryConfigurationError({
            message: `Paperclip's ctx.http refused memplane serve at ${origin} (${call.operation}): ${reason}. The host never reaches loopback or private addresses; run memplane serve on a public https:// address and set service.url to it, or use service.mode "worker"`,
          }),
          unreachable,
        );
      }
      throw clean(new MemoryApiCallError({ message: `memplane serve at ${origin} could not be reached (${call.operation}): ${reason}`, url: `${origin}${call.path}`, isRetryable: true }), unreachable);
    } finally {
      clearTimeout(timer);
    }
  }

  function bodyOf(text: string): { text: string; json: unknown } {
    if (text === '') return { text, json: undefined };
    try {
      return { text, json: JSON.parse(text) as unknown };
    } catch {
      return { text, json: undefined };
    }
  }

  return {
    origin,
    async call(call, schema) {
      const { response, text: raw } = await send(call);
      const { text, json } = bodyOf(raw);
      if (response.status >= 300) {
        const { status } = response;
        // The whole text is scrubbed before it is cut to length, so no token straddles the cut.
        const failed = problemError({ status, body: scrubber.value(json), text: scrubber.text(text).slice(0, 500), retryAfter: response.headers.get('retry-after'), call, origin });
        throw clean(failed, () => new MemoryApiCallError({ message: `memplane serve (${call.operation}) answered ${status}; what it said is left out, as it repeats the worker's token`, statusCode: status, url: `${origin}${call.path}` }));
      }
      const parsed = schema.safeParse(response.status === 204 ? undefined : json);
      if (!parsed.success) {
        const field = scrubber.text(parsed.error.issues[0]?.path.join('.') ?? '');
        throw new MemoryInvalidResponseError({ message: `memplane serve answered ${call.operation} with a body that is not what the route returns (${field === '' ? 'the body' : field})`, field });
      }
      return parsed.data;
    },
  };
}
