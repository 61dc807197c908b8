import { MemoryError, MemoryScopeViolationError } from '@memplane/core';

const marker = Symbol.for('memplane.service.access-denied');

/**
 * The policy refused the call: another company than the actor's, a company an operator is not
 * granted, or an operation the actor may not perform. Its code is `MEMORY_SCOPE_VIOLATION`;
 * nothing reached a provider.
 */
export class MemoryAccessDeniedError extends MemoryScopeViolationError {
  /** The operation that was refused. */
  readonly operation: string;
  /** The company the call was for. */
  readonly companyId: string;
  /** Why, as the policy said it. */
  readonly reason: string;

  constructor(options: { operation: string; companyId: string; reason: string }) {
    super({ message: `Access denied to ${options.operation} in company "${options.companyId}": ${options.reason}` });
    this.name = 'MemoryAccessDeniedError';
    this.operation = options.operation;
    this.companyId = options.companyId;
    this.reason = options.reason;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for this error, also when thrown by another copy of the package. */
  static override isInstance(error: unknown): error is MemoryAccessDeniedError {
    return MemoryError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
