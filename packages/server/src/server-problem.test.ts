import {
  MemoryApiCallError,
  MemoryConflictError,
  MemoryError,
  MemoryRateLimitedError,
  MemoryTimeoutError,
  MemoryValidationError,
} from '@memplane/core';
import { MemoryAccessDeniedError, MemoryBindingNotFoundError, MemoryQuotaExceededError } from '@memplane/service';
import { describe, expect, it } from 'vitest';
import { problemOf } from './server-problem';

describe('problem details', () => {
  it('maps each typed error to its status, keeping the code, the fields and Retry-After', () => {
    const cases: Array<[unknown, number, string]> = [
      [new MemoryValidationError({ target: 'query request', issues: [{ path: 'query', message: 'must not be empty' }] }), 422, 'MEMORY_VALIDATION'],
      [new MemoryAccessDeniedError({ operation: 'query', companyId: 'acme', reason: 'no' }), 403, 'MEMORY_SCOPE_VIOLATION'],
      [new MemoryBindingNotFoundError({ companyId: 'acme' }), 404, 'MEMORY_CONFIGURATION'],
      [new MemoryQuotaExceededError({ bindingKey: 'default', quota: 'records', limit: 1, used: 1, requested: 1, field: 'records' }), 422, 'MEMORY_VALIDATION'],
      [new MemoryConflictError({ message: 'changed' }), 409, 'MEMORY_CONFLICT'],
      [new MemoryRateLimitedError({ message: 'slow down', retryAfterMs: 2500 }), 429, 'MEMORY_RATE_LIMITED'],
      [new MemoryTimeoutError({ timeoutMs: 10, operation: 'query' }), 504, 'MEMORY_TIMEOUT'],
      [new MemoryApiCallError({ message: 'down', statusCode: 503 }), 502, 'MEMORY_API_CALL'],
    ];
    for (const [error, status, code] of cases) {
      const { body } = problemOf(error);
      expect(`${(error as Error).name} ${body.status} ${body.code}`).toBe(`${(error as Error).name} ${status} ${code}`);
      expect(body.type).toBe(`urn:memplane:problem:${code}`);
      expect(body.detail).toBe((error as Error).message);
    }
    expect(problemOf(cases[0]?.[0]).body.issues).toEqual([{ path: 'query', message: 'must not be empty' }]);
    expect(problemOf(cases[5]?.[0]).headers).toEqual({ 'retry-after': '3' });
  });

  it('says nothing of an error that is not a memplane error', () => {
    const { body, headers } = problemOf(new TypeError('secret path /etc/shadow and a key sk-123'));
    expect(body).toEqual({ type: 'urn:memplane:problem:SERVER_INTERNAL', title: 'Internal Server Error', status: 500, detail: 'The server failed to handle the request.', code: 'SERVER_INTERNAL' });
    expect(headers).toEqual({});
    expect(MemoryError.isInstance(new TypeError('x'))).toBe(false);
  });
});
