import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryConfigurationError } from '@memplane/core';

/**
 * Where the adapter template is: `template/` of the installed package (filled by the
 * `prepack` script), or, inside the memplane repository where `template/` is absent,
 * `adapters/_template` itself. Both `src/` and `dist/` sit one level below the package root.
 */
export function findTemplateDirectory(moduleUrl: string = import.meta.url): string {
  const packageRoot = resolve(dirname(fileURLToPath(moduleUrl)), '..');
  const candidates = [join(packageRoot, 'template'), resolve(packageRoot, '..', '..', 'adapters', '_template')];
  const found = candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
  if (found === undefined) {
    throw new MemoryConfigurationError({
      message: `The adapter template is missing: looked in ${candidates.join(
        ' and ',
      )}. Reinstall create-memplane-adapter.`,
    });
  }
  return found;
}
