import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

const preset = libraryPreset(process.cwd());

export default defineConfig([
  // Each store and the pg-boss queue have an entry point of their own, so a project installs only
  // the driver it uses; the store interface is a subpath for store authors.
  // shims: the CommonJS build needs `import.meta.url` to load the optional better-sqlite3 lazily.
  // Neither build cleans dist: both write into it at once, and a cleaning build's type step
  // deletes every declaration file there, the other build's `testing.d.ts` included.
  { ...preset, entry: ['src/index.ts', 'src/sqlite.ts', 'src/postgres.ts', 'src/pg-boss.ts', 'src/store.ts'], shims: true, clean: false },
  {
    ...preset,
    entry: ['src/testing.ts'],
    // vitest cannot be required from CommonJS, so the store suite ships as ESM only.
    format: ['esm'],
    clean: false,
    external: ['vitest'],
  },
]);
