import { MemoryScopeViolationError } from '@memplane/core';

/** Which cross-scope rule (§7.2) a request broke. */
export type ScopePolicyRule = 'scope.boundary_any' | 'scope.combination_cap' | 'scope.candidate_cap';

/**
 * A read asked for more than the cross-scope policy allows: ANY on a boundary field, more scope
 * combinations than the cap, or more candidates than the caps. Thrown before any query runs.
 */
export class ScopePolicyError extends MemoryScopeViolationError {
  /** The dotted id of the broken rule. */
  readonly rule: ScopePolicyRule;
  /** The scope field or option at fault. */
  readonly field: string;

  constructor(options: { rule: ScopePolicyRule; field: string; message: string }) {
    super({ message: options.message });
    this.name = 'ScopePolicyError';
    this.rule = options.rule;
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is ScopePolicyError {
    return MemoryScopeViolationError.isInstance(error) && typeof (error as { rule?: unknown }).rule === 'string';
  }
}
