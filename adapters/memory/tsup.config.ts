import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// `provider` is the description hosts register (`@memplane/memory/provider`).
export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts', provider: 'src/provider.ts' } }));
