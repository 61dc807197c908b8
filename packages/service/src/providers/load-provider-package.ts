import { defineMemoryProvider, MemoryConfigurationError, MemoryError, MemoryValidationError, parseInput, type MemoryProviderDefinition } from '@memplane/core';
import { z } from 'zod';
import { isMissingPackage, MemoryMissingPackageError } from '../errors/memory-missing-package-error';

/** Options of {@link loadProviderPackage}. */
export interface LoadProviderPackageOptions {
  /**
   * Imports a module by specifier (`@acme/memplane-adapter/provider`). Default: a dynamic
   * `import()`, resolved from the service's own location. A host that bundles its providers,
   * or resolves them from another folder, passes its own.
   */
  load?: (specifier: string) => Promise<unknown>;
}

// A package name, never a path or a URL: the host's config names packages, and a path would
// load whatever file it points at.
const packageNameSchema = z
  .string()
  .max(214)
  .regex(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/, 'must be an npm package name, such as @acme/memplane-adapter (not a path)');

// A variable specifier keeps bundlers from resolving provider packages at build time.
const importModule = (specifier: string): Promise<unknown> => import(specifier);

const isObject = (value: unknown): value is Record<string, unknown> => (typeof value === 'object' || typeof value === 'function') && value !== null;

/** The description a `./provider` module exports: `provider`, else the default export (of an ES module, or of CommonJS through interop). */
function candidateOf(module: unknown): unknown {
  if (!isObject(module)) return undefined;
  if (module.provider !== undefined) return module.provider;
  const fallback = module.default;
  // CommonJS loaded through import(): the default export is `module.exports`, which holds `provider`.
  if (isObject(fallback) && !('providerId' in fallback) && fallback.provider !== undefined) return fallback.provider;
  return fallback;
}

/**
 * Whether a failed import says that the package itself is not installed: Node names the
 * package (`Cannot find package '@acme/x'`), vitest's resolver and `require` the whole
 * specifier. A package that is installed but lacks the entry point is another error
 * (`ERR_PACKAGE_PATH_NOT_EXPORTED`, or the absolute path of the missing file).
 */
const isNotInstalled = (error: unknown, packageName: string, specifier: string): boolean => isMissingPackage(error, packageName) || isMissingPackage(error, specifier);

/**
 * Loads the provider description of an adapter package by name: imports
 * `<packageName>/provider`, takes its `provider` export (else its default export), checks it
 * with core's `defineMemoryProvider` and returns the checked, frozen definition, ready for
 * `MemoryServiceSettings.providers`. The service itself knows no provider; a host turns the
 * package names of its config into definitions with this, so adding a provider changes no host.
 *
 * - A name that is not an npm package name (a path, a URL) throws `MemoryValidationError`
 *   naming `packageName`, and nothing is imported.
 * - A package that is not installed throws `MemoryMissingPackageError` naming it.
 * - A package that is installed but has no `./provider` entry point, fails to load, or exports
 *   no valid description throws `MemoryConfigurationError` saying which.
 *
 * @example
 * ```ts
 * const acme = await loadProviderPackage('@acme/memplane-adapter');
 * const service = await createMemoryService({ providers: [acme] });
 * ```
 */
export async function loadProviderPackage(packageName: string, options: LoadProviderPackageOptions = {}): Promise<MemoryProviderDefinition> {
  const name = parseInput(packageNameSchema, packageName, 'provider package', 'packageName');
  const specifier = `${name}/provider`;
  let module: unknown;
  try {
    module = await (options.load ?? importModule)(specifier);
  } catch (cause) {
    if (isNotInstalled(cause, name, specifier)) {
      throw new MemoryMissingPackageError({ packageName: name, feature: `The provider package ${name}`, cause });
    }
    const code = isObject(cause) ? (cause as { code?: unknown }).code : undefined;
    throw new MemoryConfigurationError({
      message:
        code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND'
          ? `${name} is installed but has no ${specifier} entry point: is it a memplane adapter package that describes its provider?`
          : `${specifier} could not be loaded.`,
      cause,
    });
  }
  const candidate = candidateOf(module);
  if (candidate === undefined) {
    throw new MemoryConfigurationError({
      message: `${specifier} exports no provider description: it must export \`provider\` (or a default export) made with defineMemoryProvider.`,
    });
  }
  try {
    return defineMemoryProvider(candidate as MemoryProviderDefinition);
  } catch (cause) {
    if (!MemoryError.isInstance(cause)) throw cause;
    const issue = MemoryValidationError.isInstance(cause) ? cause.issues[0] : undefined;
    throw new MemoryConfigurationError({
      message: `${specifier} exports an invalid provider description${issue === undefined ? '' : `: ${issue.path} ${issue.message}`}.`,
      cause,
    });
  }
}
