import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// ESM only: @paperclipai/plugin-sdk ships no CommonJS build, so a CJS build of this package could not load it.
export default defineConfig([libraryPreset(process.cwd(), { format: ['esm'] })]);
