import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'scripts',
    include: ['*.test.ts'],
    // The docs and packed-install tests build projects outside the repository and install
    // packed tarballs into them: seconds to a minute each, bounded by the timeouts they set.
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
