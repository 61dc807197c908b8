import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// `provider` is the description hosts register (`@memplane/markdown/provider`).
export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts', cli: 'src/cli.ts', provider: 'src/provider.ts' } }));
