import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

const preset = libraryPreset(process.cwd());

export default defineConfig([
  // Each store and the pg-boss queue have an entry point of their own, so a project installs only
  // the driver it uses; the store interface is a subpath for store authors.
  // shims: the CommonJS build needs `import.meta.url` to load the optional better-sqlite3 lazily.
  { ...preset, entry: ['src/index.ts', 'src/sqlite.ts', 'src/postgres.ts', 'src/pg-boss.ts', 'src/store.ts'], shims: true },
  {
    ...preset,
    entry: ['src/testing.ts'],
    // vitest cannot be required from CommonJS, so the store suite ships as ESM only.
    format: ['esm'],
    // The build above owns cleaning; both write into dist at once.
    clean: false,
    external: ['vitest'],
  },
]);
