import { MemoryConfigurationError, MemoryError } from '@memplane/core';

const marker = Symbol.for('memplane.service.binding-not-found');

/**
 * No enabled binding answers the request: the agent has no override and the company has no
 * default, or the binding key named does not exist (or is disabled) in the company. Its code
 * is `MEMORY_CONFIGURATION`, because the fix is a binding change, not a retry.
 */
export class MemoryBindingNotFoundError extends MemoryConfigurationError {
  /** The company that was resolved. */
  readonly companyId: string;
  /** The agent that was resolved, when there was one. */
  readonly agentId: string | undefined;
  /** The binding key that was asked for, when there was one. */
  readonly bindingKey: string | undefined;

  constructor(options: { companyId: string; agentId?: string; bindingKey?: string }) {
    const what =
      options.bindingKey !== undefined
        ? `no enabled binding with key "${options.bindingKey}"`
        : options.agentId !== undefined
          ? `no enabled binding for agent "${options.agentId}" (no agent override and no company default)`
          : 'no enabled company default binding';
    // Without a key, the fix is a target: say which call sets it, for the company or for the agent.
    const fix =
      options.bindingKey !== undefined
        ? ''
        : ` Point the company at a binding with setTarget({ targetType: 'company' }, key)${
            options.agentId === undefined ? '' : `, or this agent with setTarget({ targetType: 'agent', agentId: '${options.agentId}' }, key)`
          }.`;
    super({ message: `Company "${options.companyId}" has ${what}.${fix}` });
    this.name = 'MemoryBindingNotFoundError';
    this.companyId = options.companyId;
    this.agentId = options.agentId;
    this.bindingKey = options.bindingKey;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for this error, also when thrown by another copy of the package. */
  static override isInstance(error: unknown): error is MemoryBindingNotFoundError {
    return MemoryError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
