import { MemoryConfigurationError, MemoryError } from '@memplane/core';

const marker = Symbol.for('memplane.service.missing-package');

/**
 * A feature of the service needs a package that is an optional install, and it is not
 * installed: `better-sqlite3` for the embedded SQLite store, a provider package that
 * `loadProviderPackage` was asked to load. Deployments that use neither (a Postgres store with
 * hosted providers) never install `better-sqlite3`, so nothing native is compiled. It is a
 * `MemoryConfigurationError` (code `MEMORY_CONFIGURATION`); `packageName` is what to install.
 */
export class MemoryMissingPackageError extends MemoryConfigurationError {
  /** The npm package to install. */
  readonly packageName: string;
  /** What needed it, in words: "the embedded SQLite store". */
  readonly feature: string;

  constructor(options: { packageName: string; feature: string; cause?: unknown }) {
    super({
      message: `${options.feature} needs ${options.packageName}, which is not installed: run \`npm install ${options.packageName}\`.`,
      cause: options.cause,
    });
    this.name = 'MemoryMissingPackageError';
    this.packageName = options.packageName;
    this.feature = options.feature;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for this error, also when thrown by another copy of the package. */
  static override isInstance(error: unknown): error is MemoryMissingPackageError {
    return MemoryError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}

/** Whether `error` says that `packageName` itself (not something it imports) cannot be found. */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${packageName}'`) || message.includes(`"${packageName}"`));
}
