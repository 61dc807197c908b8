import { fileURLToPath } from 'node:url';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { loadConformanceModule } from './load-conformance-module';

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/modules/${name}`, import.meta.url));

describe('loadConformanceModule', () => {
  it('loads a TypeScript module, prefers the default export, and picks up the optional named exports', async () => {
    const loaded = await loadConformanceModule(fixture('default-export.ts'));
    expect(await loaded.createAdapter()).toEqual({ origin: 'default export' });
    expect(await loaded.createPeerAdapter?.()).toEqual({ origin: 'peer' });
    expect(typeof loaded.faults?.inject).toBe('function');
    expect(typeof loaded.waitForConsistency).toBe('function');
  });

  it('falls back to a named createAdapter, and takes the export named by exportName', async () => {
    expect(await (await loadConformanceModule(fixture('named-exports.mjs'))).createAdapter()).toEqual({ origin: 'named createAdapter' });
    const staging = await loadConformanceModule(fixture('named-exports.mjs'), 'createStagingAdapter');
    expect(await staging.createAdapter()).toEqual({ origin: 'staging' });
    expect(staging.faults).toBeUndefined();
  });

  it('opens up a CommonJS module.exports object', async () => {
    const loaded = await loadConformanceModule(fixture('common-js.cjs'));
    expect(await loaded.createAdapter()).toEqual({ origin: 'commonjs createAdapter' });
    expect(typeof loaded.faults?.reset).toBe('function');
  });

  it('refuses an empty path or export name, naming the argument', async () => {
    await expect(loadConformanceModule(' ')).rejects.toSatisfy((error: unknown) => MemoryValidationError.isInstance(error) && error.field === 'path');
    await expect(loadConformanceModule(fixture('named-exports.mjs'), '')).rejects.toSatisfy(
      (error: unknown) => MemoryValidationError.isInstance(error) && error.field === 'exportName',
    );
  });

  it('refuses a module without an adapter factory, a non-function export and a missing file', async () => {
    await expect(loadConformanceModule(fixture('no-factory.ts'))).rejects.toSatisfy(
      (error: unknown) => MemoryConfigurationError.isInstance(error) && /no adapter factory.*It exports: settings/.test(error.message),
    );
    await expect(loadConformanceModule(fixture('named-exports.mjs'), 'notAFunction')).rejects.toSatisfy(
      (error: unknown) => MemoryConfigurationError.isInstance(error) && error.message.includes('an export named `notAFunction`'),
    );
    await expect(loadConformanceModule(fixture('missing.ts'))).rejects.toSatisfy(
      (error: unknown) => MemoryConfigurationError.isInstance(error) && error.message.startsWith('Conformance module not found'),
    );
  });
});
