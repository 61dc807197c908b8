import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;

/** Every package a source file imports, following the relative imports through the package's own files. */
function packagesImportedFrom(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.includes(file)) continue;
    files.push(file);
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.')) pending.push(`${resolve(dirname(file), specifier)}.ts`);
      else packages.add(specifier);
    }
  }
  return { files, packages };
}

describe('the @memplane/conformance/runner entry', () => {
  it('imports no vitest anywhere in its graph, so the CLI and plain Node can use it', () => {
    const { files, packages } = packagesImportedFrom(fileURLToPath(new URL('./runner.ts', import.meta.url)));
    expect(files.length).toBeGreaterThan(20);
    expect([...packages].filter((name) => name.includes('vitest'))).toEqual([]);
    expect([...packages].sort()).toEqual(['@memplane/core', 'commander', 'jiti', 'node:crypto', 'node:fs', 'node:fs/promises', 'node:path', 'node:perf_hooks', 'node:url', 'node:util', 'node:assert/strict', 'zod'].sort());
  });

  it('is told apart from the main entry, which does import vitest', () => {
    const { packages } = packagesImportedFrom(fileURLToPath(new URL('./index.ts', import.meta.url)));
    expect(packages.has('vitest')).toBe(true);
  });
});
