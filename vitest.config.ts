import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'conformance', 'adapters/*', 'internal/fixture-provider', 'examples/service-demo', 'bench', 'scripts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
