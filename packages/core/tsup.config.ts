import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// `rules` is the taxonomy, PII and query-analysis subpath shared by the markdown adapter and the engine.
export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts', rules: 'src/rules/index.ts' } }));
