import type { MemoryFault } from '@memplane/core';

/** The faults answered with an HTTP error status. */
export type HttpErrorFault = Extract<MemoryFault, { kind: 'rate_limited' | 'server_error' }>;

/**
 * How an injected `malformed_body` fault answers: `wrong-shape` is valid JSON that matches
 * no provider response (`{"unexpected":true}`); `invalid-json` is text that is not JSON at all.
 */
export type MalformedBodyStyle = 'wrong-shape' | 'invalid-json';

const jsonHeaders = { 'content-type': 'application/json' };

/** The 429 or 5xx response of an error fault, with a JSON error body. */
export function createErrorResponse(fault: HttpErrorFault): Response {
  if (fault.kind === 'rate_limited') {
    return new Response(
      JSON.stringify({ error: 'rate_limited', message: 'Too many requests (injected fault).' }),
      { status: 429, headers: { ...jsonHeaders, 'retry-after': String(fault.retryAfterSeconds) } },
    );
  }
  return new Response(
    JSON.stringify({ error: 'server_error', message: `Server error ${fault.status} (injected fault).` }),
    { status: fault.status, headers: jsonHeaders },
  );
}

/** The 200 response of a `malformed_body` fault. */
export function createMalformedResponse(style: MalformedBodyStyle): Response {
  const body = style === 'invalid-json' ? '{"unexpected": tru' : JSON.stringify({ unexpected: true });
  return new Response(body, { status: 200, headers: jsonHeaders });
}
