import { describe, expect, it } from 'vitest';
import { MemoryValidationError } from '../errors/memory-validation-error';
import { parseInput } from './parse-with-schema';
import { memoryQueryRequestSchema } from './request-schemas';

function validationErrorOf(run: () => unknown): MemoryValidationError {
  try {
    run();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error;
    throw error;
  }
  throw new MemoryValidationError({ target: 'test', issues: [{ path: '', message: 'expected a validation error' }] });
}

describe('parseInput', () => {
  it('names an unknown key by its own path, not its parent', () => {
    const error = validationErrorOf(() =>
      parseInput(
        memoryQueryRequestSchema,
        { bindingKey: 'main', scope: { companyId: 'c1', agentid: 'typo' }, query: 'deploys' },
        'query request',
      ),
    );
    expect(error.field).toBe('scope.agentid');
  });

  it('prefixes paths with the given prefix', () => {
    const error = validationErrorOf(() =>
      parseInput(memoryQueryRequestSchema, { bindingKey: 'main', scope: { companyId: 'c1' }, query: ' ' }, 'request', 'request'),
    );
    expect(error.field).toBe('request.query');
  });
});
