import { readFileSync } from 'node:fs';
import type { Options } from 'tsup';

/**
 * The one tsup preset every memplane package builds with: ESM and CJS with types,
 * source maps, and the package version injected as `__PACKAGE_VERSION__`.
 * Keeping it in one place keeps a move to another bundler a one-file change.
 */
export function libraryPreset(packageDirectory: string, overrides: Options = {}): Options {
  const manifest = JSON.parse(readFileSync(`${packageDirectory}/package.json`, 'utf8')) as { version: string };
  return {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    define: { __PACKAGE_VERSION__: JSON.stringify(manifest.version) },
    ...overrides,
  };
}
