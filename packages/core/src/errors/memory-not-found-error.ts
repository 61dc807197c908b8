import { MemoryError } from './memory-error';

/** The record or job does not exist in the requested scope. Another company's record reads as not found. */
export class MemoryNotFoundError extends MemoryError {
  /** The id that was not found. */
  readonly resourceId: string;

  constructor(options: { resourceId: string; message?: string; cause?: unknown }) {
    super('MEMORY_NOT_FOUND', {
      message: options.message ?? `Not found in this scope: ${options.resourceId}`,
      cause: options.cause,
    });
    this.name = 'MemoryNotFoundError';
    this.resourceId = options.resourceId;
  }

  static override isInstance(error: unknown): error is MemoryNotFoundError {
    return MemoryError.hasCode(error, 'MEMORY_NOT_FOUND');
  }
}
