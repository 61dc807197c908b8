import { MemoryError } from './memory-error';

/** The adapter's capability manifest says it cannot do this operation. */
export class UnsupportedCapabilityError extends MemoryError {
  /** The capability flag or operation that is missing. */
  readonly capability: string;
  /** The adapter key. */
  readonly provider: string;

  constructor(options: { capability: string; provider: string; message?: string }) {
    super('MEMORY_UNSUPPORTED_CAPABILITY', {
      message: options.message ?? `The ${options.provider} adapter does not support ${options.capability}.`,
    });
    this.name = 'UnsupportedCapabilityError';
    this.capability = options.capability;
    this.provider = options.provider;
  }

  static override isInstance(error: unknown): error is UnsupportedCapabilityError {
    return MemoryError.hasCode(error, 'MEMORY_UNSUPPORTED_CAPABILITY');
  }
}
