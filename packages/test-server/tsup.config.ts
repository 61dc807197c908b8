import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

export default defineConfig(
  libraryPreset(process.cwd(), {
    entry: ['src/index.ts', 'src/with-vitest.ts'],
    // The caller's msw and vitest must be the ones patched and driving the tests.
    external: ['msw', 'msw/node', 'vitest'],
  }),
);
