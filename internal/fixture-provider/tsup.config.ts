import { defineConfig } from 'tsup';
import { libraryPreset } from '../tsconfig/tsup-preset';

// `provider` is the description hosts load by package name (`@memplane-fixtures/notebook-provider/provider`).
export default defineConfig(libraryPreset(process.cwd(), { entry: { index: 'src/index.ts', provider: 'src/provider.ts' } }));
