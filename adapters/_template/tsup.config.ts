import { defineConfig } from 'tsup';

// Self-contained on purpose: a scaffolded adapter lives outside the memplane repository.
export default defineConfig({
  // `provider` is the description memplane hosts load by package name (`<package>/provider`).
  entry: ['src/index.ts', 'src/provider.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
