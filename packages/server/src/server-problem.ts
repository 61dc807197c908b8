import { MemoryError, MemoryValidationError, type MemoryErrorCode } from '@memplane/core';
import { MemoryBindingNotFoundError } from '@memplane/service';
import { z } from 'zod';

/** The codes the server adds for refusals that happen before the service is called. */
export type ServerProblemCode = 'SERVER_UNAUTHENTICATED' | 'SERVER_BODY_TOO_LARGE' | 'SERVER_UNSUPPORTED_MEDIA_TYPE' | 'SERVER_ROUTE_NOT_FOUND' | 'SERVER_INTERNAL';

/** An RFC 9457 problem-details body, as every error response of the server carries it (`application/problem+json`). */
export interface ServerProblem {
  /** `urn:memplane:problem:<code>`. */
  type: string;
  /** A short summary of the problem type. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** What went wrong in this request, for a person. */
  detail: string;
  /** The stable `MemoryError` code, or a `SERVER_*` code for refusals before the service. */
  code: MemoryErrorCode | ServerProblemCode;
  /** For validation errors: every refused field and why. */
  issues?: Array<{ path: string; message: string }>;
  /** Whether the same request may succeed later. */
  retryable?: boolean;
}

/** The problem-details schema, for the OpenAPI document. */
export const serverProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryable: z.boolean().optional(),
});

const statusOfCode: Record<MemoryErrorCode, number> = {
  MEMORY_VALIDATION: 422,
  MEMORY_SCOPE_VIOLATION: 403,
  MEMORY_NOT_FOUND: 404,
  MEMORY_UNSUPPORTED_CAPABILITY: 422,
  MEMORY_API_CALL: 502,
  MEMORY_RATE_LIMITED: 429,
  MEMORY_TIMEOUT: 504,
  MEMORY_INVALID_CURSOR: 400,
  MEMORY_CONFLICT: 409,
  MEMORY_INVALID_RESPONSE: 502,
  MEMORY_CONFIGURATION: 500,
};

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

/** Builds a problem body. */
export function problem(status: number, code: ServerProblem['code'], detail: string, extra: Partial<ServerProblem> = {}): ServerProblem {
  return { type: `urn:memplane:problem:${code}`, title: titles[status] ?? 'Error', status, detail, code, ...extra };
}

/** A problem and the headers that go with it (`Retry-After`). */
export interface ProblemResponse {
  /** The body. */
  body: ServerProblem;
  /** Extra headers. */
  headers: Record<string, string>;
}

/**
 * Maps what a handler threw to a problem. A `MemoryError` keeps its code and message (the
 * service redacts resolved secrets from them); a binding that does not resolve is 404; anything
 * else is a 500 whose detail says nothing of the cause.
 */
export function problemOf(error: unknown): ProblemResponse {
  if (!MemoryError.isInstance(error)) {
    return { body: problem(500, 'SERVER_INTERNAL', 'The server failed to handle the request.'), headers: {} };
  }
  const status = MemoryBindingNotFoundError.isInstance(error) ? 404 : statusOfCode[error.code];
  const headers: Record<string, string> = {};
  if (error.retryAfterMs !== undefined && (status === 429 || status === 502 || status === 504)) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  }
  const issues = MemoryValidationError.isInstance(error) ? error.issues.map((issue) => ({ path: issue.path, message: issue.message })) : undefined;
  return {
    body: problem(status, error.code, error.message, { ...(issues === undefined ? {} : { issues }), retryable: error.isRetryable }),
    headers,
  };
}
