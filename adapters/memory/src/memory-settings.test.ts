import { MemoryConfigurationError, MemoryValidationError, type MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter';
import type { MemoryAdapterSettings } from './memory-settings';
import { acme, bindingKey, rejectionOf } from './memory-test-support';

function settingsError(settings: unknown): MemoryValidationError {
  try {
    createMemoryAdapter(settings as MemoryAdapterSettings);
  } catch (error) {
    expect(MemoryValidationError.isInstance(error)).toBe(true);
    return error as MemoryValidationError;
  }
  throw new Error('expected the settings to be refused');
}

describe('settings', () => {
  it('are all optional', () => {
    expect(createMemoryAdapter().key).toBe('memory');
    expect(createMemoryAdapter({}).key).toBe('memory');
  });

  it.each([
    [{ timeoutMs: 0 }, 'settings.timeoutMs'],
    [{ timeoutMs: 1.5 }, 'settings.timeoutMs'],
    [{ extractionPollsToFinish: 0 }, 'settings.extractionPollsToFinish'],
    [{ store: {} }, 'settings.store'],
    [{ faults: { inject() {} } }, 'settings.faults'],
    [{ now: '2025-01-01' }, 'settings.now'],
    [{ cursorSecret: '' }, 'settings.cursorSecret'],
    [{ cursorSecret: 42 }, 'settings.cursorSecret'],
  ])('refuse %o naming %s', (settings, field) => {
    const error = settingsError(settings);
    expect(error.field).toBe(field);
    expect(error.message).toContain(field);
  });

  it('refuse unknown settings, so a typo is not silently ignored', () => {
    expect(settingsError({ timeoutMS: 10 }).message).toContain('timeoutMS');
  });

  it('accept a binary cursor secret', async () => {
    const adapter = createMemoryAdapter({ cursorSecret: new Uint8Array(32).fill(7) });
    await expect(adapter.list({ bindingKey, scope: acme })).resolves.toMatchObject({ items: [] });
  });

  it('report a clock that returns no valid Date as a configuration error', async () => {
    const scope: MemoryScope = acme;
    const adapter = createMemoryAdapter({ now: () => new Date('not a date') });
    const error = await rejectionOf(adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'x y z' }] }));
    expect(MemoryConfigurationError.isInstance(error)).toBe(true);
  });
});
