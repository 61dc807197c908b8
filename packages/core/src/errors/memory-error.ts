const marker = Symbol.for('memplane.error');

/** The stable codes of memplane errors. Codes never change meaning between versions. */
export type MemoryErrorCode =
  | 'MEMORY_VALIDATION'
  | 'MEMORY_SCOPE_VIOLATION'
  | 'MEMORY_NOT_FOUND'
  | 'MEMORY_UNSUPPORTED_CAPABILITY'
  | 'MEMORY_API_CALL'
  | 'MEMORY_RATE_LIMITED'
  | 'MEMORY_TIMEOUT'
  | 'MEMORY_INVALID_CURSOR'
  | 'MEMORY_CONFLICT'
  | 'MEMORY_INVALID_RESPONSE'
  | 'MEMORY_CONFIGURATION';

/** The constructor options every memplane error accepts. */
export interface MemoryErrorOptions {
  /** What went wrong, for a person. */
  message: string;
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** Whether the same call may succeed if retried. Default false. */
  isRetryable?: boolean;
  /** How long to wait before retrying, when the provider said (Retry-After). */
  retryAfterMs?: number;
}

/**
 * The base of every error memplane throws. Check errors with `MemoryError.isInstance(error)`
 * or a subclass's `isInstance`, which works across duplicate copies of the package,
 * or switch on the stable `code`.
 */
export class MemoryError extends Error {
  /** The stable error code. */
  readonly code: MemoryErrorCode;
  /** Whether the same call may succeed if retried. */
  readonly isRetryable: boolean;
  /** How long to wait before retrying, when known. */
  readonly retryAfterMs: number | undefined;

  constructor(code: MemoryErrorCode, options: MemoryErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemoryError';
    this.code = code;
    this.isRetryable = options.isRetryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    Object.defineProperty(this, marker, { value: true });
  }

  /**
   * True for any memplane error, including ones from another copy of the package. Never throws:
   * a value that throws when it is looked at (a proxy, a getter) is not a memplane error.
   */
  static isInstance(error: unknown): error is MemoryError {
    if (typeof error !== 'object' || error === null) return false;
    try {
      return (error as Record<symbol, unknown>)[marker] === true;
    } catch {
      return false;
    }
  }

  /** True when `error` is a memplane error with the given code. */
  static hasCode<Code extends MemoryErrorCode>(error: unknown, code: Code): error is MemoryError & { code: Code } {
    if (!MemoryError.isInstance(error)) return false;
    try {
      return error.code === code;
    } catch {
      return false;
    }
  }
}
