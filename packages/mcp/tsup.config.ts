import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

export default defineConfig([
  libraryPreset(process.cwd(), { clean: false }),
  libraryPreset(process.cwd(), {
    entry: ['src/memplane-mcp.ts'],
    format: ['esm'],
    dts: false,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  }),
]);
