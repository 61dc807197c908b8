import { MemoryError } from './memory-error';

/** A request tried to cross the scope boundary, such as a source of another company. */
export class MemoryScopeViolationError extends MemoryError {
  constructor(options: { message: string; cause?: unknown }) {
    super('MEMORY_SCOPE_VIOLATION', options);
    this.name = 'MemoryScopeViolationError';
  }

  static override isInstance(error: unknown): error is MemoryScopeViolationError {
    return MemoryError.hasCode(error, 'MEMORY_SCOPE_VIOLATION');
  }
}
