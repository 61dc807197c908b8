import { MemoryError } from './memory-error';

/** The call did not finish within its timeout. Retryable. */
export class MemoryTimeoutError extends MemoryError {
  /** The timeout that expired, in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: { timeoutMs: number; operation: string; cause?: unknown }) {
    super('MEMORY_TIMEOUT', {
      message: `${options.operation} did not finish within ${options.timeoutMs} ms.`,
      cause: options.cause,
      isRetryable: true,
    });
    this.name = 'MemoryTimeoutError';
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is MemoryTimeoutError {
    return MemoryError.hasCode(error, 'MEMORY_TIMEOUT');
  }
}

/** Why a cursor was refused. */
export type InvalidCursorReason = 'malformed' | 'tampered' | 'foreign' | 'stale';

/** The cursor is malformed, tampered with, issued for another scope or listing, or expired. */
export class InvalidCursorError extends MemoryError {
  /** Why the cursor was refused. */
  readonly reason: InvalidCursorReason;

  constructor(options: { reason: InvalidCursorReason; cause?: unknown }) {
    super('MEMORY_INVALID_CURSOR', { message: `Invalid cursor (${options.reason}).`, cause: options.cause });
    this.name = 'InvalidCursorError';
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is InvalidCursorError {
    return MemoryError.hasCode(error, 'MEMORY_INVALID_CURSOR');
  }
}

/** The write conflicts with the current state, such as a concurrent change. Retryable. */
export class MemoryConflictError extends MemoryError {
  constructor(options: { message: string; cause?: unknown }) {
    super('MEMORY_CONFLICT', { ...options, isRetryable: true });
    this.name = 'MemoryConflictError';
  }

  static override isInstance(error: unknown): error is MemoryConflictError {
    return MemoryError.hasCode(error, 'MEMORY_CONFLICT');
  }
}

/** The provider returned something that does not match the contract. It is never passed on. */
export class MemoryInvalidResponseError extends MemoryError {
  /** The dotted path of the first bad field of the response, when known. */
  readonly field: string | undefined;

  constructor(options: { message: string; field?: string; cause?: unknown }) {
    super('MEMORY_INVALID_RESPONSE', { message: options.message, cause: options.cause });
    this.name = 'MemoryInvalidResponseError';
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is MemoryInvalidResponseError {
    return MemoryError.hasCode(error, 'MEMORY_INVALID_RESPONSE');
  }
}

/** An adapter or service was configured wrongly (a missing key, an unknown provider id). */
export class MemoryConfigurationError extends MemoryError {
  constructor(options: { message: string; cause?: unknown }) {
    super('MEMORY_CONFIGURATION', options);
    this.name = 'MemoryConfigurationError';
  }

  static override isInstance(error: unknown): error is MemoryConfigurationError {
    return MemoryError.hasCode(error, 'MEMORY_CONFIGURATION');
  }
}
