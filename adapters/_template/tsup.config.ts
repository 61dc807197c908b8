import { defineConfig } from 'tsup';

// Self-contained on purpose: a scaffolded adapter lives outside the memplane repository.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
