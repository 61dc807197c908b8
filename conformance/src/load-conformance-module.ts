import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemoryConfigurationError, parseInput, type MemoryAdapter, type MemoryFaultInjector } from '@memplane/core';
import { createJiti } from 'jiti';
import { z } from 'zod';
import type { ConformanceOptions } from './conformance-options';

/** What a conformance module provides: everything of the options except `name` and `only`. */
export type LoadedConformanceModule = Omit<ConformanceOptions, 'name' | 'only'>;

function isFunction(value: unknown): value is (...parameters: never[]) => unknown {
  return typeof value === 'function';
}

const loadArgumentsSchema = z.object({
  path: z.string().trim().min(1, 'must name a module file'),
  exportName: z.string().trim().min(1, 'must not be empty when given').optional(),
});

/** The module's exports; a CommonJS `module.exports = { ... }` object arrives as `default` and is opened up. */
function exportsOf(loaded: unknown): Record<string, unknown> {
  const namespace = (typeof loaded === 'object' && loaded !== null ? loaded : {}) as Record<string, unknown>;
  const defaultExport = namespace.default;
  const commonJs = typeof defaultExport === 'object' && defaultExport !== null ? (defaultExport as Record<string, unknown>) : {};
  return { ...commonJs, ...namespace };
}

/**
 * Loads a conformance module (`.ts`, `.mts`, `.js`, `.mjs` or `.cjs`, through jiti) and reads
 * its exports: `createAdapter` (the default export, a named export `createAdapter`, or the
 * export named `exportName`), and the optional named exports `createPeerAdapter`, `faults`,
 * `waitForConsistency`. Throws `MemoryValidationError` for an empty path or export name, and
 * `MemoryConfigurationError` when the file is missing or has no adapter factory.
 */
export async function loadConformanceModule(path: string, exportName?: string): Promise<LoadedConformanceModule> {
  parseInput(loadArgumentsSchema, { path, exportName }, 'conformance module arguments');
  const absolutePath = resolve(path);
  if (!existsSync(absolutePath)) {
    throw new MemoryConfigurationError({ message: `Conformance module not found: ${absolutePath}` });
  }
  const jiti = createJiti(pathToFileURL(resolve(process.cwd(), 'conformance-loader.js')).href, { interopDefault: false });
  const exports = exportsOf(await jiti.import<unknown>(absolutePath));
  const defaultExport = exports.default;
  const candidate =
    exportName !== undefined
      ? exports[exportName]
      : isFunction(defaultExport)
        ? defaultExport
        : exports.createAdapter;
  if (!isFunction(candidate)) {
    const wanted = exportName === undefined ? 'a default export or a named export `createAdapter`' : `an export named \`${exportName}\``;
    throw new MemoryConfigurationError({
      message: `Conformance module ${absolutePath} has no adapter factory: expected ${wanted} that returns a MemoryAdapter (or a promise of one). It exports: ${Object.keys(exports).filter((key) => key !== 'default').join(', ') || 'nothing'}.`,
    });
  }
  const module: LoadedConformanceModule = { createAdapter: candidate as () => MemoryAdapter | Promise<MemoryAdapter> };
  if (exports.createPeerAdapter !== undefined) module.createPeerAdapter = exports.createPeerAdapter as () => MemoryAdapter;
  if (exports.faults !== undefined) module.faults = exports.faults as MemoryFaultInjector;
  if (exports.waitForConsistency !== undefined) module.waitForConsistency = exports.waitForConsistency as () => Promise<void>;
  return module;
}
