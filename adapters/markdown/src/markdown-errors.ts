import { MemoryApiCallError, MemoryConfigurationError, MemoryError, MemoryTimeoutError } from '@memplane/core';

/**
 * File system error codes worth retrying: the condition is temporary (a lock, too many open
 * files, an interrupted call). Everything else (EISDIR, EACCES, ENOTDIR, EROFS, ENOSPC...) stays
 * until a person acts, so retrying it would only repeat the failure.
 */
const retryableFileCodes = new Set(['EAGAIN', 'EBUSY', 'EINTR', 'EMFILE', 'ENFILE', 'ETIMEDOUT', 'EWOULDBLOCK']);

/** SQLite result codes that mean "another connection holds the lock": the same call may succeed later. */
function isSqliteBusy(code: string): boolean {
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether an error is SQLite saying that another connection holds the lock it needs. */
export function isBusyError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && isSqliteBusy(code);
}

/** Whether an error says that a file is not a database or is damaged. */
export function isCorruptionError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

/** What the store was doing when something failed, for the message and the lock wait. */
export interface FailureContext {
  /** The work, in a few words: "open the markdown root", "write records". */
  operation: string;
  /** How long a lock was waited for, in milliseconds. */
  lockTimeoutMs: number;
  /** The root the store works in, named in messages. */
  root: string;
}

/**
 * Turns any failure of the markdown store into a memplane error: memplane errors pass through;
 * a SQLite lock held by another process becomes a retryable `MemoryTimeoutError`; every other
 * SQLite or file system failure becomes a `MemoryApiCallError` that names the file and is
 * retryable only for temporary conditions. Nothing raw reaches the caller.
 */
export function toMemoryError(error: unknown, context: FailureContext): MemoryError {
  if (MemoryError.isInstance(error)) return error;
  const code = errorCode(error) ?? 'UNKNOWN';
  const message = error instanceof Error ? error.message : String(error);
  if (isSqliteBusy(code)) {
    return new MemoryTimeoutError({
      timeoutMs: context.lockTimeoutMs,
      operation: `Waiting for the write lock of the markdown index under ${context.root} (another process holds it: a write, a reindex or a rebuild) to ${context.operation}`,
      cause: error,
    });
  }
  const path = (error as { path?: unknown } | null)?.path;
  const where = typeof path === 'string' ? path : context.root;
  if (code.startsWith('SQLITE_')) {
    const detail = isCorruptionError(error) ? 'the index is damaged' : 'the index failed';
    return new MemoryApiCallError({ message: `The markdown store could not ${context.operation}: ${detail} (${code}: ${message}).`, url: where, isRetryable: false, cause: error });
  }
  return new MemoryApiCallError({
    message: `The markdown store could not ${context.operation}: ${code} on ${where} (${message}).`,
    url: where,
    isRetryable: retryableFileCodes.has(code),
    cause: error,
  });
}

/** A configuration error that names the file at fault and says what to do about it. */
export function fileConfigurationError(path: string, problem: string, cause?: unknown): MemoryConfigurationError {
  return new MemoryConfigurationError({ message: `${path}: ${problem}`, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Wraps every function of `operations` so that whatever it throws or rejects with reaches the
 * caller as a memplane error (see `toMemoryError`), named after the operation.
 */
export function guardOperations<Operations extends object>(operations: Operations, context: Omit<FailureContext, 'operation'>): Operations {
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(operations)) {
    if (typeof value !== 'function') {
      guarded[name] = value;
      continue;
    }
    const operation = `run ${name}`;
    guarded[name] = (...args: unknown[]) => {
      try {
        const result: unknown = value.apply(operations, args);
        return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(toMemoryError(error, { ...context, operation }))) : result;
      } catch (error) {
        throw toMemoryError(error, { ...context, operation });
      }
    };
  }
  return guarded as Operations;
}
