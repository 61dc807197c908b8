import { defineMemoryProvider } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { exampleAdapterSettingsSchema } from './example-adapter';
import { provider } from './provider';

const context = { companyId: 'company-1', bindingId: 'binding-1', bindingKey: 'main', bindingDirectory: undefined, companyDirectory: undefined, dataDirectory: undefined };
const configSchema = provider.configSchema as z.ZodObject;

describe('the provider description', () => {
  it('passes defineMemoryProvider and takes every setting but the store, secrets as references', () => {
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(Object.keys(configSchema.shape)).toEqual(Object.keys(exampleAdapterSettingsSchema.shape).filter((setting) => setting !== 'store'));
    expect(configSchema.safeParse({ cursorSecret: { $secret: { env: 'EXAMPLE_CURSOR_SECRET' } } }).success).toBe(true);
    expect(configSchema.safeParse({ cursorSecret: 'a-plain-secret-value-of-some-length' }).success).toBe(false);
  });

  it('builds a working adapter', async () => {
    const adapter = await provider.create({ cursorSecret: 'a resolved cursor secret' }, context);
    const scope = { companyId: 'company-1' };
    const written = await adapter.upsertRecords({ bindingKey: 'main', scope, records: [{ text: 'The team deploys on Tuesdays.' }] });
    expect((await adapter.get(written.records![0]!, scope))?.text).toBe('The team deploys on Tuesdays.');
  });
});
