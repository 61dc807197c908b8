import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMem0Adapter } from './mem0-adapter';
import { defaultMem0BaseURL, resolveMem0Settings } from './mem0-settings';

function validationField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error.field;
    throw error;
  }
  return undefined;
}

describe('mem0 adapter settings', () => {
  it('applies the defaults and trims a trailing slash from the base URL', () => {
    expect(resolveMem0Settings({ apiKey: 'key', baseURL: 'https://mem0.internal.example/' })).toEqual({
      apiKey: 'key',
      baseURL: 'https://mem0.internal.example',
      headers: {},
      fetch: expect.any(Function),
      timeoutMs: 30_000,
      retry: {},
      cursorSecret: undefined,
      captureRole: 'user',
      searchThreshold: undefined,
      billingType: 'subscription_included',
      attributionMode: 'external_invoice',
    });
    expect(resolveMem0Settings({}, { MEM0_API_KEY: ' from-env ' }).baseURL).toBe(defaultMem0BaseURL);
    expect(resolveMem0Settings({}, { MEM0_API_KEY: ' from-env ' }).apiKey).toBe('from-env');
  });

  it('refuses bad settings with a validation error naming the setting', () => {
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', timeoutMs: 0 }))).toBe('settings.timeoutMs');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', baseURL: 'ftp://mem0.example' }))).toBe('settings.baseURL');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', retry: { maxRetries: -1 } }))).toBe('settings.retry.maxRetries');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', searchThreshold: 2 }))).toBe('settings.searchThreshold');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', cursorSecret: 'short' }))).toBe('settings.cursorSecret');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', captureRole: 'system' as 'user' }))).toBe('settings.captureRole');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', apiKeyTypo: 'x' } as never))).toBe('settings.apiKeyTypo');
    // One vocabulary with the Supermemory adapter: the old name is refused, not silently ignored.
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', host: 'https://mem0.example' } as never))).toBe('settings.host');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', headers: { Authorization: 'Token other' } }))).toBe('settings.headers.Authorization');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', headers: { 'x-trace': 'a\r\nInjected: 1' } }))).toBe('settings.headers.x-trace');
    expect(validationField(() => resolveMem0Settings({ apiKey: 'key', fetch: 'not a function' as never }))).toBe('settings.fetch');
  });

  it('needs an API key from the settings or MEM0_API_KEY', () => {
    expect(() => resolveMem0Settings({}, {})).toThrow(MemoryConfigurationError);
    expect(() => resolveMem0Settings({}, { MEM0_API_KEY: '   ' })).toThrow(/MEM0_API_KEY/);
  });

  it('creates an adapter without loading the SDK or calling mem0', () => {
    const adapter = createMem0Adapter({ apiKey: 'key', baseURL: 'https://api.mem0.test' });
    expect(adapter.key).toBe('mem0');
    expect(adapter.specificationVersion).toBe('v1');
    expect(adapter.capabilities.explain).toBe(false);
  });
});
