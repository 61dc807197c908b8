import {
  MemoryApiCallError,
  MemoryConfigurationError,
  MemoryConflictError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
  MemoryRateLimitedError,
  MemoryValidationError,
  parseRetryAfter,
  type MemoryErrorCode,
} from '@memplane/core';
import { MemoryAccessDeniedError, MemoryBindingNotFoundError } from '@memplane/service';
import { z } from 'zod';
import type { HttpCall } from './memplane-http-transport';

/** An RFC 9457 problem-details body as `memplane serve` sends it (`code` is the `MemoryError` code or a `SERVER_*` one). */
const problemSchema = z.looseObject({
  status: z.number().int().optional(),
  detail: z.string().max(4000).optional(),
  code: z.string().max(100),
  issues: z.array(z.looseObject({ path: z.string().max(500), message: z.string().max(1000) })).max(100).optional(),
  retryable: z.boolean().optional(),
});

const memoryErrorCodes: ReadonlySet<string> = new Set<MemoryErrorCode>([
  'MEMORY_VALIDATION',
  'MEMORY_SCOPE_VIOLATION',
  'MEMORY_NOT_FOUND',
  'MEMORY_UNSUPPORTED_CAPABILITY',
  'MEMORY_API_CALL',
  'MEMORY_RATE_LIMITED',
  'MEMORY_TIMEOUT',
  'MEMORY_INVALID_CURSOR',
  'MEMORY_CONFLICT',
  'MEMORY_INVALID_RESPONSE',
  'MEMORY_CONFIGURATION',
]);

/** What a failed response carried. */
export interface FailedServerResponse {
  status: number;
  /** The parsed JSON body (undefined when it is not JSON), the token already cut out of every string and key. */
  body: unknown;
  /** The start of the body as text, the token already cut out. */
  text: string;
  retryAfter: string | null;
  call: HttpCall;
  origin: string;
}

/**
 * Maps a failed answer of `memplane serve` back to the `MemoryError` class of its code, so the
 * worker handles a server's refusal as it handles the in-worker service's: a validation error
 * names its fields, a 403 is `MemoryAccessDeniedError`, an unresolved binding (404 with
 * `MEMORY_CONFIGURATION`) is `MemoryBindingNotFoundError`, a 429 keeps its `Retry-After`. A
 * refused token (401) is a configuration error that says what to do. Anything without a problem
 * body is a failed API call with its status.
 */
export function problemError(response: FailedServerResponse): MemoryError {
  const { status, call, origin } = response;
  const where = `memplane serve (${call.operation})`;
  const parsed = problemSchema.safeParse(response.body);
  const retryAfterMs = parseRetryAfter(response.retryAfter);
  if (status >= 300 && status < 400) {
    return new MemoryApiCallError({ message: `${where} answered with a redirect (${status}); the worker does not follow redirects with its token`, statusCode: status, isRetryable: false });
  }
  if (!parsed.success) {
    return new MemoryApiCallError({ message: `${where} answered ${status} without a problem-details body`, statusCode: status, url: `${origin}${call.path}`, responseBody: response.text });
  }
  const problem = parsed.data;
  const detail = problem.detail ?? `${where} answered ${status} ${problem.code}`;
  if (status === 401 || problem.code === 'SERVER_UNAUTHENTICATED') {
    return new MemoryConfigurationError({ message: `${where} refused the token (401: unknown, revoked or expired). Issue a new one with \`memplane token issue\` and update the Paperclip secret service.token names.` });
  }
  if (problem.code === 'SERVER_BODY_TOO_LARGE') return new MemoryValidationError({ target: `${call.operation} request`, issues: [{ path: 'body', message: detail }] });
  if (!memoryErrorCodes.has(problem.code)) {
    return new MemoryApiCallError({ message: `${where}: ${detail}`, statusCode: status, url: `${origin}${call.path}`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }
  const code = problem.code as MemoryErrorCode;
  switch (code) {
    case 'MEMORY_VALIDATION':
      return new MemoryValidationError({ target: `${call.operation} request`, issues: problem.issues?.length ? problem.issues.map(({ path, message }) => ({ path, message })) : [{ path: '', message: detail }] });
    case 'MEMORY_SCOPE_VIOLATION':
      return new MemoryAccessDeniedError({ operation: call.operation, companyId: call.companyId ?? '(unknown)', reason: detail });
    case 'MEMORY_NOT_FOUND':
      return new MemoryNotFoundError({ resourceId: call.path, message: detail });
    case 'MEMORY_CONFIGURATION':
      if (status === 404 && call.companyId !== undefined) return new MemoryBindingNotFoundError({ companyId: call.companyId });
      return new MemoryConfigurationError({ message: detail });
    case 'MEMORY_RATE_LIMITED':
      return new MemoryRateLimitedError({ message: detail, statusCode: status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    case 'MEMORY_API_CALL':
      return new MemoryApiCallError({ message: detail, statusCode: status, ...(problem.retryable === undefined ? {} : { isRetryable: problem.retryable }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    case 'MEMORY_CONFLICT':
      return new MemoryConflictError({ message: detail });
    case 'MEMORY_INVALID_RESPONSE':
      return new MemoryInvalidResponseError({ message: detail });
    default:
      // Timeout, invalid cursor, unsupported capability: the code and the server's words, retryable as the server says.
      return new MemoryError(code, { message: detail, isRetryable: problem.retryable ?? code === 'MEMORY_TIMEOUT', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }
}
