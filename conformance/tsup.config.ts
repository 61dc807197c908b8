import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { libraryPreset } from '../internal/tsconfig/tsup-preset';

const preset = libraryPreset(process.cwd());

/**
 * vitest refuses to be loaded by require(), so the CommonJS build of the main entry takes the
 * vitest entry from describe-memory-adapter-conformance-commonjs.ts, which never imports vitest
 * and throws a typed error when called: the rest of the main entry works from CommonJS.
 */
const vitestEntryForCommonJs: Plugin = {
  name: 'vitest-entry-for-commonjs',
  setup(build) {
    if (build.initialOptions.format !== 'cjs') return;
    build.onResolve({ filter: /^\.\/describe-memory-adapter-conformance$/ }, (args) => ({
      path: join(args.resolveDir, 'describe-memory-adapter-conformance-commonjs.ts'),
    }));
  },
};

export default defineConfig([
  {
    ...preset,
    entry: { index: 'src/index.ts', runner: 'src/runner.ts' },
    // Both builds run at once: this one cleans dist except the CLI's folder, which the other writes.
    clean: ['!cli/**'],
    // vitest is an optional peer: only the main entry imports it, and it must come from the user's install.
    external: ['vitest'],
    esbuildPlugins: [vitestEntryForCommonJs],
  },
  {
    ...preset,
    entry: { 'cli/memplane-conformance': 'src/cli/memplane-conformance.ts' },
    format: ['esm'],
    dts: false,
    // Not cleaned here: the build above owns cleaning, and its output lands beside this one's.
    clean: false,
    external: ['vitest'],
    banner: { js: '#!/usr/bin/env node' },
  },
]);
