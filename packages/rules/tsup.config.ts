import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// `sqlite` is the FTS5 lexical index of the SQLite backends; it needs no driver of its own.
export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts', sqlite: 'src/sqlite/index.ts' } }));
