import { defineConfig } from 'vitest/config';

// A config of its own, so vitest never takes up the config of a folder above this one.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'] },
});
