import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

// `provider` is the description hosts load by package name (`@memplane/agentcore/provider`).
export default defineConfig(libraryPreset(process.cwd(), { entry: ['src/index.ts', 'src/setup.ts', 'src/cli.ts', 'src/provider.ts'] }));
