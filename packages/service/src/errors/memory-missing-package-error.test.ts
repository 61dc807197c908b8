import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryConfigurationError } from '@memplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqliteDriver } from '../store/sqlite/sqlite-driver';
import { isMissingPackage, MemoryMissingPackageError } from './memory-missing-package-error';

// A folder with no node_modules above it: Node's own resolution finds nothing there, as in a
// deployment that never installed the optional packages.
const emptyProject = mkdtempSync(join(tmpdir(), 'memplane-no-optional-packages-'));
const requireFromEmptyProject = createRequire(join(emptyProject, 'index.js'));
afterAll(() => rmSync(emptyProject, { recursive: true, force: true }));

describe('optional packages', () => {
  it('the SQLite store without better-sqlite3 names the package to install', () => {
    const error = (() => {
      try {
        loadSqliteDriver(requireFromEmptyProject);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(MemoryMissingPackageError.isInstance(error)).toBe(true);
    expect(MemoryConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_CONFIGURATION', packageName: 'better-sqlite3' });
    expect((error as Error).message).toContain('npm install better-sqlite3');
  });

  it('a package that is installed but cannot load is not reported as missing', () => {
    const broken = () => {
      throw new Error('The module was compiled against a different Node.js version (NODE_MODULE_VERSION 115).');
    };
    expect(() => loadSqliteDriver(broken)).toThrow(/installed but cannot be loaded/);
    expect(() => loadSqliteDriver(broken)).not.toThrow(MemoryMissingPackageError);
  });

  it('a missing module inside the package is not the package missing', () => {
    const inner = Object.assign(new Error("Cannot find module 'bindings'"), { code: 'MODULE_NOT_FOUND' });
    expect(isMissingPackage(inner, 'better-sqlite3')).toBe(false);
    const own = Object.assign(new Error("Cannot find package 'better-sqlite3' imported from /app/x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(isMissingPackage(own, 'better-sqlite3')).toBe(true);
  });

  it('with the package installed, the real one loads', () => {
    expect(typeof loadSqliteDriver()).toBe('function');
  });
});
