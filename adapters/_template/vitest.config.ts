import { defineProject } from 'vitest/config';

// No source aliases: @memplane/* resolve through node_modules, exactly as in a scaffolded
// adapter outside the memplane repository. Inside the repository, build them first.
export default defineProject({
  test: { name: 'example', include: ['src/**/*.test.ts'] },
});
