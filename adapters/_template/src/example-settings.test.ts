import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { resolveExampleSettings } from './example-settings';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return MemoryValidationError.isInstance(error) ? error.field : undefined;
  }
  return undefined;
}

describe('resolveExampleSettings', () => {
  it('applies the defaults', () => {
    const resolved = resolveExampleSettings({ apiKey: 'key' }, {});
    expect(resolved).toMatchObject({ apiKey: 'key', baseURL: 'https://api.example.com', timeoutMs: 30_000, retry: {} });
    expect(resolved.fetch).toBe(globalThis.fetch);
    expect(resolved.cursorSecret).toBeUndefined();
  });

  it('takes the API key from EXAMPLE_API_KEY when the settings have none', () => {
    expect(resolveExampleSettings({}, { EXAMPLE_API_KEY: 'from-env' }).apiKey).toBe('from-env');
    expect(resolveExampleSettings({ apiKey: 'explicit' }, { EXAMPLE_API_KEY: 'from-env' }).apiKey).toBe('explicit');
  });

  it('throws a configuration error without any API key', () => {
    expect(() => resolveExampleSettings({}, {})).toThrow(MemoryConfigurationError);
    expect(() => resolveExampleSettings({}, { EXAMPLE_API_KEY: '  ' })).toThrow(/EXAMPLE_API_KEY/);
  });

  it('drops trailing slashes of the base URL', () => {
    expect(resolveExampleSettings({ apiKey: 'key', baseURL: 'http://127.0.0.1:8080/' }, {}).baseURL).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it('names the bad setting', () => {
    expect(fieldOf(() => resolveExampleSettings({ apiKey: '' }, {}))).toBe('settings.apiKey');
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', baseURL: 'ftp://files' }, {}))).toBe(
      'settings.baseURL',
    );
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', timeoutMs: 0 }, {}))).toBe('settings.timeoutMs');
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', retry: { backoffFactor: 0.5 } }, {}))).toBe(
      'settings.retry.backoffFactor',
    );
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', cursorSecret: 'short' }, {}))).toBe(
      'settings.cursorSecret',
    );
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', fetch: 'no' as unknown as typeof fetch }, {}))).toBe(
      'settings.fetch',
    );
    expect(fieldOf(() => resolveExampleSettings({ apiKey: 'key', unknownSetting: true } as never, {}))).toBe(
      'settings.unknownSetting',
    );
  });
});
