import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { resolveSupermemorySettings } from './supermemory-settings';

function validationField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error.field;
    throw error;
  }
  return undefined;
}

describe('resolveSupermemorySettings', () => {
  it('applies the documented defaults, reading the key and base URL from the environment', () => {
    const resolved = resolveSupermemorySettings({}, { SUPERMEMORY_API_KEY: 'from-env' });
    expect(resolved).toMatchObject({
      apiKey: 'from-env',
      baseURL: 'https://api.supermemory.ai',
      containerTagPrefix: 'mp',
      timeoutMs: 30_000,
      retry: {},
      extractionNotFoundGraceMs: 120_000,
      billingType: 'metered_api',
      attributionMode: 'untracked',
    });
    expect(resolveSupermemorySettings({ apiKey: 'k' }, { SUPERMEMORY_BASE_URL: 'http://127.0.0.1:4010/' }).baseURL).toBe('http://127.0.0.1:4010');
  });

  it('throws MemoryConfigurationError without an API key or a client', () => {
    expect(() => resolveSupermemorySettings({}, {})).toThrow(MemoryConfigurationError);
    expect(() => resolveSupermemorySettings({}, { SUPERMEMORY_API_KEY: '  ' })).toThrow(MemoryConfigurationError);
  });

  it('names the bad setting', () => {
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', containerTagPrefix: 'bad_prefix' }, {}))).toBe('settings.containerTagPrefix');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', timeoutMs: 0 }, {}))).toBe('settings.timeoutMs');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', retry: { maxRetries: -1 } }, {}))).toBe('settings.retry.maxRetries');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', baseURL: 'ftp://x' }, {}))).toBe('settings.baseURL');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', cursorSecret: 'short' }, {}))).toBe('settings.cursorSecret');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', searchThreshold: 2 }, {}))).toBe('settings.searchThreshold');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', unknownSetting: true } as never, {}))).toBe('settings.unknownSetting');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', headers: { authorization: 'Bearer other' } }, {}))).toBe('settings.headers.authorization');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', headers: { 'bad name': 'x' } }, {}))).toBe('settings.headers.bad name');
    expect(validationField(() => resolveSupermemorySettings({ apiKey: 'k', headers: { 'x-trace': 'a\nb' } }, {}))).toBe('settings.headers.x-trace');
  });
});
