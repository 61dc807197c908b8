import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineMemoryProvider, type MemoryProviderBuildContext } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { MarkdownAdapter } from './markdown-adapter';
import { markdownAdapterSettingsSchema } from './markdown-settings';
import providerByDefault, { provider } from './provider';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();
const built: MarkdownAdapter[] = [];
afterEach(() => {
  for (const adapter of built.splice(0)) adapter.close();
});

const reference = (env: string) => ({ $secret: { env } });
const contextIn = (folder: string | undefined): MemoryProviderBuildContext => ({
  companyId: 'acme',
  bindingId: 'bnd_1',
  bindingKey: 'default',
  bindingDirectory: folder === undefined ? undefined : join(folder, 'bnd_1'),
  companyDirectory: folder,
  dataDirectory: folder,
});

/** Settings a binding cannot set, and why (the README lists them). */
const notSettable = {
  extractor: 'an object with a function: a binding uses the built-in rule extractor',
  embedder: 'an object with a function: a binding searches lexically',
  now: 'a function: a binding runs on the real clock',
  onEvent: 'a function: the host has no callback to give',
  onProgress: 'a function: the host has no callback to give',
};

/**
 * One value a binding may give each setting of the adapter. A setting added to the adapter
 * without a value here fails the walk below: give it one, or list it in `notSettable` and the
 * README.
 */
const bindingValues: Record<string, unknown> = {
  root: 'notes',
  extraction: { assistantTurns: 'keep' },
  fusion: 'rrf',
  lexicalWeights: { body: 1, context: 0, metadata: 0.5 },
  neighbourWindows: false,
  sectionsPerFile: 500,
  lockTimeoutMs: 5_000,
  cursorSecret: reference('MARKDOWN_CURSOR_SECRET'),
};

const configSchema = provider.configSchema as z.ZodObject;

describe('the markdown provider description', () => {
  it('passes defineMemoryProvider under the id and package hosts know, as the default export too', () => {
    expect(providerByDefault).toBe(provider);
    expect(() => defineMemoryProvider(provider)).not.toThrow();
    expect(provider).toMatchObject({ providerId: 'markdown', packageName: '@memplane/markdown', localRootField: 'root', secretFields: ['cursorSecret'] });
    expect(provider.destination).toBeUndefined();
  });

  it('accepts its config example and an empty config (the root defaults to the binding folder), and refuses a plain cursor secret', () => {
    expect(configSchema.safeParse(provider.configExample).success).toBe(true);
    expect(configSchema.safeParse({}).success).toBe(true);
    expect(configSchema.safeParse({ cursorSecret: 'a-plain-secret-value-of-some-length' }).success).toBe(false);
  });

  it('lets a binding set every setting of the adapter but the objects and functions, neighbourWindows included', () => {
    for (const setting of Object.keys(markdownAdapterSettingsSchema.shape)) {
      if (setting in notSettable) {
        expect(configSchema.shape, setting).not.toHaveProperty(setting);
        expect(configSchema.safeParse({ [setting]: 'anything' }).success, setting).toBe(false);
        continue;
      }
      expect(bindingValues, `no binding value for the setting "${setting}": add one, or list it in notSettable and the README`).toHaveProperty(setting);
      expect(configSchema.safeParse({ [setting]: bindingValues[setting] }).success, setting).toBe(true);
      if (!provider.secretFields?.includes(setting)) {
        expect(markdownAdapterSettingsSchema.safeParse({ root: '/srv/memory', [setting]: bindingValues[setting] }).success, setting).toBe(true);
      }
    }
    expect(configSchema.safeParse({ neighbourWindows: 'no' }).success).toBe(false);
    expect(configSchema.safeParse({ root: 'a\u0000b' }).success).toBe(false);
  });

  it('builds a working adapter in the root the host confined, and in the binding folder without one', async () => {
    const folder = temporary.root();
    const scope = { companyId: 'acme', agentId: 'planner' };
    const inRoot = (await provider.create({ root: join(folder, 'notes'), neighbourWindows: false, cursorSecret: 'resolved-cursor-secret' }, contextIn(folder))) as MarkdownAdapter;
    built.push(inRoot);
    await inRoot.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
    const { snippets } = await inRoot.query({ bindingKey: 'default', scope, query: 'when do deploys happen?' });
    expect(snippets.map((snippet) => snippet.text)).toEqual(['Deploys happen on Tuesdays.']);
    expect(existsSync(join(folder, 'notes', 'companies'))).toBe(true);

    const inBindingFolder = (await provider.create({}, contextIn(folder))) as MarkdownAdapter;
    built.push(inBindingFolder);
    await inBindingFolder.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Standups are at nine.' }] });
    expect(existsSync(join(folder, 'bnd_1', 'companies'))).toBe(true);
  });

  it('refuses to build without a root when the host has no folder for the binding, naming the setting', () => {
    expect(() => provider.create({}, contextIn(undefined))).toThrow(/settings\.root/);
  });
});
