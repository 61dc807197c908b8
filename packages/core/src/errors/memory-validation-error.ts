import { MemoryError } from './memory-error';

/** One problem found in a request or result. */
export interface MemoryValidationIssue {
  /** The dotted path of the bad field, such as `records.0.text` or `scope.companyId`. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** A request (or setting) failed validation. Nothing was written and the provider was not called. */
export class MemoryValidationError extends MemoryError {
  /** The dotted path of the first bad field. */
  readonly field: string;
  /** Every problem found. */
  readonly issues: MemoryValidationIssue[];
  /** What was being validated, such as `query request`. */
  readonly target: string;

  constructor(options: { target: string; issues: MemoryValidationIssue[]; cause?: unknown }) {
    const first = options.issues[0] ?? { path: '', message: 'invalid value' };
    super('MEMORY_VALIDATION', {
      message: `Invalid ${options.target}: ${first.path === '' ? '(root)' : first.path}: ${first.message}`,
      cause: options.cause,
    });
    this.name = 'MemoryValidationError';
    this.field = first.path;
    this.issues = options.issues;
    this.target = options.target;
  }

  static override isInstance(error: unknown): error is MemoryValidationError {
    return MemoryError.hasCode(error, 'MEMORY_VALIDATION');
  }
}
