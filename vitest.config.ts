import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'conformance', 'adapters/*'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
