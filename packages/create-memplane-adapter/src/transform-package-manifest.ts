import { MemoryValidationError } from '@memplane/core';

/**
 * Turns the template's package.json (tokens already replaced) into the new adapter's:
 * publishable (`private` removed) at version 0.1.0. Key order and formatting are kept.
 */
export function transformPackageManifest(text: string): string {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw new MemoryValidationError({
      target: 'adapter template',
      issues: [{ path: 'package.json', message: 'is not valid JSON' }],
      cause,
    });
  }
  const { private: _private, ...publishable } = manifest;
  return `${JSON.stringify({ ...publishable, version: '0.1.0' }, null, 2)}\n`;
}
