import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// Both builds write to dist/ at the same time, so neither cleans it.
export default defineConfig([
  libraryPreset(process.cwd(), { clean: false, shims: true }),
  libraryPreset(process.cwd(), {
    entry: ['src/cli.ts'],
    format: ['esm'],
    dts: false,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  }),
]);
