import { defineConfig } from 'tsup';
import { libraryPreset } from '../internal/tsconfig/tsup-preset';

const preset = libraryPreset(process.cwd());

export default defineConfig([
  {
    ...preset,
    entry: { index: 'src/index.ts', runner: 'src/runner.ts' },
    // Both builds run at once: this one cleans dist except the CLI's folder, which the other writes.
    clean: ['!cli/**'],
    // vitest is an optional peer: only the main entry imports it, and it must come from the user's install.
    external: ['vitest'],
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
