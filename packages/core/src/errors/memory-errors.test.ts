import { describe, expect, it } from 'vitest';
import {
  InvalidCursorError,
  isRetryableStatus,
  MemoryApiCallError,
  MemoryConfigurationError,
  MemoryConflictError,
  MemoryError,
  MemoryInvalidResponseError,
  MemoryNotFoundError,
  MemoryRateLimitedError,
  MemoryScopeViolationError,
  MemoryTimeoutError,
  MemoryValidationError,
  UnsupportedCapabilityError,
  type MemoryErrorCode,
} from './index';

interface ErrorCase {
  name: string;
  create: (cause?: unknown) => MemoryError;
  code: MemoryErrorCode;
  isRetryable: boolean;
  isInstance: (error: unknown) => boolean;
}

const cases: ErrorCase[] = [
  {
    name: 'MemoryValidationError',
    create: (cause) => new MemoryValidationError({ target: 'query request', issues: [{ path: 'query', message: 'must not be empty' }], cause }),
    code: 'MEMORY_VALIDATION',
    isRetryable: false,
    isInstance: MemoryValidationError.isInstance,
  },
  {
    name: 'MemoryScopeViolationError',
    create: (cause) => new MemoryScopeViolationError({ message: 'crossed companies', cause }),
    code: 'MEMORY_SCOPE_VIOLATION',
    isRetryable: false,
    isInstance: MemoryScopeViolationError.isInstance,
  },
  {
    name: 'MemoryNotFoundError',
    create: (cause) => new MemoryNotFoundError({ resourceId: 'record-1', cause }),
    code: 'MEMORY_NOT_FOUND',
    isRetryable: false,
    isInstance: MemoryNotFoundError.isInstance,
  },
  {
    name: 'UnsupportedCapabilityError',
    create: () => new UnsupportedCapabilityError({ capability: 'profile', provider: 'memory' }),
    code: 'MEMORY_UNSUPPORTED_CAPABILITY',
    isRetryable: false,
    isInstance: UnsupportedCapabilityError.isInstance,
  },
  {
    name: 'MemoryApiCallError',
    create: (cause) => new MemoryApiCallError({ message: 'bad request', statusCode: 400, cause }),
    code: 'MEMORY_API_CALL',
    isRetryable: false,
    isInstance: MemoryApiCallError.isInstance,
  },
  {
    name: 'MemoryRateLimitedError',
    create: (cause) => new MemoryRateLimitedError({ message: 'slow down', cause }),
    code: 'MEMORY_RATE_LIMITED',
    isRetryable: true,
    isInstance: MemoryRateLimitedError.isInstance,
  },
  {
    name: 'MemoryTimeoutError',
    create: (cause) => new MemoryTimeoutError({ timeoutMs: 250, operation: 'mem0 search', cause }),
    code: 'MEMORY_TIMEOUT',
    isRetryable: true,
    isInstance: MemoryTimeoutError.isInstance,
  },
  {
    name: 'InvalidCursorError',
    create: (cause) => new InvalidCursorError({ reason: 'stale', cause }),
    code: 'MEMORY_INVALID_CURSOR',
    isRetryable: false,
    isInstance: InvalidCursorError.isInstance,
  },
  {
    name: 'MemoryConflictError',
    create: (cause) => new MemoryConflictError({ message: 'changed meanwhile', cause }),
    code: 'MEMORY_CONFLICT',
    isRetryable: true,
    isInstance: MemoryConflictError.isInstance,
  },
  {
    name: 'MemoryInvalidResponseError',
    create: (cause) => new MemoryInvalidResponseError({ message: 'malformed', field: 'results.0.id', cause }),
    code: 'MEMORY_INVALID_RESPONSE',
    isRetryable: false,
    isInstance: MemoryInvalidResponseError.isInstance,
  },
  {
    name: 'MemoryConfigurationError',
    create: (cause) => new MemoryConfigurationError({ message: 'missing apiKey', cause }),
    code: 'MEMORY_CONFIGURATION',
    isRetryable: false,
    isInstance: MemoryConfigurationError.isInstance,
  },
];

/** An error as a second copy of @memplane/core would build it: another class, the same global marker. */
class OtherCopyError extends Error {
  readonly code: MemoryErrorCode;
  readonly isRetryable = false;

  constructor(code: MemoryErrorCode) {
    super(`other copy: ${code}`);
    this.code = code;
    Object.defineProperty(this, Symbol.for('memplane.error'), { value: true });
  }
}

describe.each(cases)('$name', ({ name, create, code, isRetryable, isInstance }) => {
  it('has its stable code, its name and its retryability', () => {
    const error = create();
    expect(error).toBeInstanceOf(MemoryError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error.isRetryable).toBe(isRetryable);
    expect(error.message).not.toBe('');
  });

  it('is recognised by its own isInstance and by MemoryError.isInstance', () => {
    expect(isInstance(create())).toBe(true);
    expect(MemoryError.isInstance(create())).toBe(true);
    expect(MemoryError.hasCode(create(), code)).toBe(true);
  });

  it('is recognised across copies of the package through the global marker', () => {
    const fromOtherCopy = new OtherCopyError(code);
    expect(fromOtherCopy).not.toBeInstanceOf(MemoryError);
    expect(isInstance(fromOtherCopy)).toBe(true);
    expect(MemoryError.isInstance(fromOtherCopy)).toBe(true);
  });

  it('is not confused with errors of another code or without the marker', () => {
    const otherCode = code === 'MEMORY_CONFIGURATION' ? 'MEMORY_CONFLICT' : 'MEMORY_CONFIGURATION';
    expect(isInstance(new OtherCopyError(otherCode))).toBe(false);
    expect(isInstance(Object.assign(new Error('look-alike'), { code }))).toBe(false);
    expect(isInstance({ code })).toBe(false);
    expect(isInstance(null)).toBe(false);
    expect(isInstance('MEMORY_ERROR')).toBe(false);
  });

  it('keeps the cause when one is given', () => {
    const cause = new Error('underlying');
    const error = create(cause);
    if (code === 'MEMORY_UNSUPPORTED_CAPABILITY') {
      // This error is about the manifest, never about an underlying failure, so it takes no cause.
      expect(error.cause).toBeUndefined();
    } else {
      expect(error.cause).toBe(cause);
    }
    expect('cause' in create()).toBe(false);
  });
});

describe('MemoryError', () => {
  it('defaults to not retryable with no retryAfterMs', () => {
    const error = new MemoryError('MEMORY_CONFLICT', { message: 'plain' });
    expect(error.isRetryable).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('carries retryability and retryAfterMs when given', () => {
    const error = new MemoryError('MEMORY_API_CALL', { message: 'later', isRetryable: true, retryAfterMs: 1500 });
    expect(error.isRetryable).toBe(true);
    expect(error.retryAfterMs).toBe(1500);
  });

  it('keeps the marker out of enumerable properties, so copies of an error are not errors', () => {
    const marker = Symbol.for('memplane.error');
    const error = new MemoryNotFoundError({ resourceId: 'x' });
    expect(Object.getOwnPropertyDescriptor(error, marker)).toMatchObject({ value: true, enumerable: false });
    expect(MemoryError.isInstance({ ...error })).toBe(false);
  });
});

describe('MemoryValidationError', () => {
  it('names the first bad field, in the message too', () => {
    const error = new MemoryValidationError({
      target: 'upsertRecords request',
      issues: [
        { path: 'records.0.text', message: 'must not be empty' },
        { path: 'scope.companyId', message: 'must not be empty' },
      ],
    });
    expect(error.field).toBe('records.0.text');
    expect(error.target).toBe('upsertRecords request');
    expect(error.issues).toHaveLength(2);
    expect(error.message).toBe('Invalid upsertRecords request: records.0.text: must not be empty');
  });

  it('speaks of the root when the problem has no path', () => {
    const error = new MemoryValidationError({ target: 'settings', issues: [{ path: '', message: 'expected an object' }] });
    expect(error.field).toBe('');
    expect(error.message).toBe('Invalid settings: (root): expected an object');
  });

  it('still builds a message without issues', () => {
    const error = new MemoryValidationError({ target: 'settings', issues: [] });
    expect(error.field).toBe('');
    expect(error.message).toContain('invalid value');
  });
});

describe('MemoryApiCallError', () => {
  it('derives isRetryable from the status unless told', () => {
    expect(new MemoryApiCallError({ message: 'x', statusCode: 503 }).isRetryable).toBe(true);
    expect(new MemoryApiCallError({ message: 'x', statusCode: 404 }).isRetryable).toBe(false);
    expect(new MemoryApiCallError({ message: 'x' }).isRetryable).toBe(false);
    expect(new MemoryApiCallError({ message: 'x', statusCode: 503, isRetryable: false }).isRetryable).toBe(false);
    expect(new MemoryApiCallError({ message: 'x', statusCode: 400, isRetryable: true }).isRetryable).toBe(true);
  });

  it('keeps the status, URL, body and retryAfterMs', () => {
    const error = new MemoryApiCallError({
      message: 'failed',
      statusCode: 502,
      url: 'https://api.example.test/v1/search',
      responseBody: '{"error":"bad gateway"}',
      retryAfterMs: 2000,
    });
    expect(error).toMatchObject({
      statusCode: 502,
      url: 'https://api.example.test/v1/search',
      responseBody: '{"error":"bad gateway"}',
      retryAfterMs: 2000,
    });
  });

  it('counts the rate-limit error as an API call error, not the other way round', () => {
    const limited = new MemoryRateLimitedError({ message: 'slow down' });
    expect(limited).toBeInstanceOf(MemoryApiCallError);
    expect(MemoryApiCallError.isInstance(limited)).toBe(true);
    expect(MemoryRateLimitedError.isInstance(new MemoryApiCallError({ message: 'x', statusCode: 429 }))).toBe(false);
  });
});

describe('MemoryRateLimitedError', () => {
  it('defaults to status 429 and is always retryable', () => {
    const error = new MemoryRateLimitedError({ message: 'slow down', retryAfterMs: 3000 });
    expect(error.statusCode).toBe(429);
    expect(error.isRetryable).toBe(true);
    expect(error.retryAfterMs).toBe(3000);
    expect(new MemoryRateLimitedError({ message: 'quota', statusCode: 403 }).statusCode).toBe(403);
  });
});

describe('the specific fields', () => {
  it('are kept by each error', () => {
    expect(new MemoryNotFoundError({ resourceId: 'record-7' })).toMatchObject({ resourceId: 'record-7', message: expect.stringContaining('record-7') });
    expect(new UnsupportedCapabilityError({ capability: 'explain', provider: 'mem0' })).toMatchObject({
      capability: 'explain',
      provider: 'mem0',
      message: 'The mem0 adapter does not support explain.',
    });
    expect(new MemoryTimeoutError({ timeoutMs: 250, operation: 'mem0 search' })).toMatchObject({
      timeoutMs: 250,
      message: 'mem0 search did not finish within 250 ms.',
    });
    expect(new InvalidCursorError({ reason: 'foreign' })).toMatchObject({ reason: 'foreign', message: 'Invalid cursor (foreign).' });
    expect(new MemoryInvalidResponseError({ message: 'bad', field: 'items.0' }).field).toBe('items.0');
    expect(new MemoryInvalidResponseError({ message: 'bad' }).field).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [599, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
    [undefined, false],
  ])('%s → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});
