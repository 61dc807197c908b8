import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryConfigurationError } from '@memplane/core';

/**
 * Which template to copy: `full`, the hosted-provider adapter (42 files: client, fake API, unit
 * tests, build), or `minimal`, a local adapter in one file with its conformance test and workflow.
 */
export type TemplateVariant = 'full' | 'minimal';

/**
 * Where a template is. Both `src/` and `dist/` sit one level below the package root.
 * - `full`: `template/` of the installed package (filled by the `prepack` script from
 *   `adapters/_template`), or, inside the memplane repository where `template/` is absent,
 *   `adapters/_template` itself.
 * - `minimal`: `template-minimal/` of the package, which is kept there as it ships.
 *
 * Two directories, as create-vite keeps one per template, rather than a filtered copy of the full
 * template: a local adapter shares no file with the hosted one (its adapter is one file over a
 * local store, not twenty over an HTTP client and a fake API), so no filter could produce it.
 */
export function findTemplateDirectory(moduleUrl: string = import.meta.url, variant: TemplateVariant = 'full'): string {
  const packageRoot = resolve(dirname(fileURLToPath(moduleUrl)), '..');
  const candidates =
    variant === 'minimal'
      ? [join(packageRoot, 'template-minimal')]
      : [join(packageRoot, 'template'), resolve(packageRoot, '..', '..', 'adapters', '_template')];
  const found = candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
  if (found === undefined) {
    throw new MemoryConfigurationError({
      message: `The ${variant} adapter template is missing: looked in ${candidates.join(
        ' and ',
      )}. Reinstall create-memplane-adapter.`,
    });
  }
  return found;
}
