import { defineConfig } from 'tsup';
import { libraryPreset } from '../../internal/tsconfig/tsup-preset';

export default defineConfig(
  libraryPreset(process.cwd(), {
    // The caller's ai and zod must be the ones that run the models and check the scope schema.
    external: ['ai', 'zod'],
    // Each driver has its own entry point, so a project installs only the driver it uses.
    entry: ['src/index.ts', 'src/sqlite.ts', 'src/postgres.ts', 'src/pg-boss.ts'],
  }),
);
