import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { defineProject } from 'vitest/config';

// The live tests read EXAMPLE_API_KEY from .env (copy .env.example), for this project only.
const envFile = fileURLToPath(new URL('.env', import.meta.url));
const env = existsSync(envFile) ? (parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>) : {};

// No source aliases: @memplane/* resolve through node_modules, exactly as in a scaffolded
// adapter outside the memplane repository. Inside the repository, build them first.
export default defineProject({
  test: { name: 'example', include: ['src/**/*.test.ts'], env },
});
