import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts' } }));
