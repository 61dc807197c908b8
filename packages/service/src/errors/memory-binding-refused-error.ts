import { MemoryError, MemoryValidationError } from '@memplane/core';

const marker = Symbol.for('memplane.service.binding-refused');

/** The operator rules a binding config can break. */
export type MemoryBindingRefusalRule =
  /** A `{ $secret: { env } }` reference to a variable the operator does not allow for the company. */
  | 'secret.environment'
  /** A `{ $secret: { key } }` reference the host's secret resolver refused for the company. */
  | 'secret.resolver'
  /** A provider endpoint that is not on the operator's allow-list. */
  | 'destination'
  /**
   * The folder of a provider that keeps files (its description's `localRootField`, such as
   * markdown's `root`) outside the company's folder, reached through a symbolic link, or asked
   * for by a service without a data directory.
   */
  | 'local.root';

/**
 * The operator's policy refuses a binding config: a secret reference the company may not use,
 * an endpoint off the allow-list, or a local provider's root outside the company's folder. It is a
 * `MemoryValidationError` (code `MEMORY_VALIDATION`, `field` such as `config.baseURL`), so
 * nothing was saved and no provider was called; `rule` says which policy refused. The message
 * names the field and the rule, never a secret value.
 */
export class MemoryBindingRefusedError extends MemoryValidationError {
  /** The rule that refused. */
  readonly rule: MemoryBindingRefusalRule;
  /** The company of the binding. */
  readonly companyId: string;

  constructor(options: { rule: MemoryBindingRefusalRule; companyId: string; field: string; message: string; cause?: unknown }) {
    super({ target: 'binding config', issues: [{ path: options.field, message: options.message }], cause: options.cause });
    this.name = 'MemoryBindingRefusedError';
    this.rule = options.rule;
    this.companyId = options.companyId;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for this error, also when thrown by another copy of the package. */
  static override isInstance(error: unknown): error is MemoryBindingRefusedError {
    return MemoryError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
