import { MemoryError, MemoryValidationError } from '@memplane/core';

const marker = Symbol.for('memplane.service.quota-exceeded');

/** Which cap a write would pass. */
export type MemoryQuotaKind = 'records' | 'bytes';

/**
 * A write would pass its binding's cap on records or bytes (`binding.quota`). It is refused
 * whole before the provider is called, so nothing is half-written. Its code is
 * `MEMORY_VALIDATION` (the request, as sent, cannot be accepted by this binding) and it is not
 * retryable: forget records or raise the cap first. `field` names what did not fit (`records`,
 * `payload` or `patch`).
 */
export class MemoryQuotaExceededError extends MemoryValidationError {
  /** The binding whose cap would be passed. */
  readonly bindingKey: string;
  /** The cap that would be passed. */
  readonly quota: MemoryQuotaKind;
  /** The cap. */
  readonly limit: number;
  /** What the binding holds, as the service counts it. */
  readonly used: number;
  /** What the write would add. */
  readonly requested: number;

  constructor(options: { bindingKey: string; quota: MemoryQuotaKind; limit: number; used: number; requested: number; field: string }) {
    super({
      target: `write to binding "${options.bindingKey}"`,
      issues: [
        {
          path: options.field,
          message: `would pass the binding's cap of ${options.limit} ${options.quota} (${options.used} used, ${options.requested} more requested)`,
        },
      ],
    });
    this.name = 'MemoryQuotaExceededError';
    this.bindingKey = options.bindingKey;
    this.quota = options.quota;
    this.limit = options.limit;
    this.used = options.used;
    this.requested = options.requested;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for this error, also when thrown by another copy of the package. */
  static override isInstance(error: unknown): error is MemoryQuotaExceededError {
    return MemoryError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
