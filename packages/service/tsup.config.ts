import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

const preset = libraryPreset(process.cwd());

export default defineConfig([
  // The store support is a subpath of its own: what store packages share, kept out of the main entry.
  // shims: the CommonJS build needs `import.meta.url` to load the optional better-sqlite3 lazily.
  { ...preset, entry: ['src/index.ts', 'src/store-support.ts'], shims: true },
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
