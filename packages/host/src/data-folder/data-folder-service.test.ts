import { MemoryConfigurationError } from '@memplane/core';
import { MemoryMissingPackageError } from '@memplane/service';
import { describe, expect, it } from 'vitest';
import { loadPostgresStoreWith } from './data-folder-service';

const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('the Postgres store of a host', () => {
  it('fails with MemoryMissingPackageError naming pg when pg is not installed', async () => {
    // What Node throws when @memplane/service/postgres imports a pg that is not installed.
    const missing = Object.assign(new Error("Cannot find package 'pg' imported from /app/node_modules/@memplane/service/dist/postgres.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const failure = await failureOf(loadPostgresStoreWith(() => Promise.reject(missing), 'postgres://127.0.0.1:5432/memplane'));
    expect(MemoryMissingPackageError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ packageName: 'pg', code: 'MEMORY_CONFIGURATION', cause: missing });
    expect((failure as Error).message).toContain('npm install pg');
  });

  it('tells a pg that is installed but cannot load (a module missing inside it) from a missing pg', async () => {
    const inner = Object.assign(new Error("Cannot find module 'pg-native'"), { code: 'MODULE_NOT_FOUND' });
    const failure = await failureOf(loadPostgresStoreWith(() => Promise.reject(inner), 'postgres://127.0.0.1:5432/memplane'));
    expect(MemoryConfigurationError.isInstance(failure)).toBe(true);
    expect(MemoryMissingPackageError.isInstance(failure)).toBe(false);
  });

  it('loads the real store when pg is installed, without connecting', async () => {
    const { loadPostgresMemoryServiceStore } = await import('./data-folder-service');
    const store = await loadPostgresMemoryServiceStore('postgres://127.0.0.1:9/never', 'host_test');
    expect(typeof store.migrate).toBe('function');
    await store.close();
  });
});
