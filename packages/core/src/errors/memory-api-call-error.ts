import { MemoryError, type MemoryErrorCode } from './memory-error';

/** What a failed provider call returned. */
export interface MemoryApiCallErrorOptions {
  /** What went wrong, for a person. */
  message: string;
  /** The HTTP status, when the call reached the provider. */
  statusCode?: number;
  /** The URL or operation name that was called. */
  url?: string;
  /** The response body, truncated by the caller if large. */
  responseBody?: string;
  /** Whether the call may succeed if retried. Defaults from the status: 408, 409, 429 and 5xx are retryable. */
  isRetryable?: boolean;
  /** The wait the provider asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** The underlying error. */
  cause?: unknown;
}

/** Whether an HTTP status is worth retrying. */
export function isRetryableStatus(statusCode: number | undefined): boolean {
  if (statusCode === undefined) return false;
  return statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
}

/** A provider call failed. */
export class MemoryApiCallError extends MemoryError {
  /** The HTTP status, when the call reached the provider. */
  readonly statusCode: number | undefined;
  /** The URL or operation that was called. */
  readonly url: string | undefined;
  /** The response body, when there was one. */
  readonly responseBody: string | undefined;

  constructor(options: MemoryApiCallErrorOptions, code: MemoryErrorCode = 'MEMORY_API_CALL') {
    super(code, {
      message: options.message,
      cause: options.cause,
      isRetryable: options.isRetryable ?? isRetryableStatus(options.statusCode),
      retryAfterMs: options.retryAfterMs,
    });
    this.name = 'MemoryApiCallError';
    this.statusCode = options.statusCode;
    this.url = options.url;
    this.responseBody = options.responseBody;
  }

  /** True for API call errors and their subclass, the rate-limit error. */
  static override isInstance(error: unknown): error is MemoryApiCallError {
    return MemoryError.hasCode(error, 'MEMORY_API_CALL') || MemoryError.hasCode(error, 'MEMORY_RATE_LIMITED');
  }
}

/** The provider rejected the call for rate or quota reasons (HTTP 429). Always retryable. */
export class MemoryRateLimitedError extends MemoryApiCallError {
  constructor(options: Omit<MemoryApiCallErrorOptions, 'isRetryable'>) {
    super({ ...options, statusCode: options.statusCode ?? 429, isRetryable: true }, 'MEMORY_RATE_LIMITED');
    this.name = 'MemoryRateLimitedError';
  }

  static override isInstance(error: unknown): error is MemoryRateLimitedError {
    return MemoryError.hasCode(error, 'MEMORY_RATE_LIMITED');
  }
}
