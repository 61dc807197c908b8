import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDirectory = dirname(fileURLToPath(import.meta.url));

/**
 * The machine's PostgreSQL for the engine benchmarks: MEMPLANE_TEST_POSTGRES_URL, or the server
 * that @memplane/service's ensure-postgres.sh starts and prepares; otherwise why there is none.
 */
export function benchPostgresUrl(): { url?: string; reason?: string } {
  if (process.env.MEMPLANE_TEST_POSTGRES_URL !== undefined) return { url: process.env.MEMPLANE_TEST_POSTGRES_URL };
  try {
    const output = execFileSync('sh', [join(benchDirectory, '..', 'packages', 'service', 'scripts', 'ensure-postgres.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    return { url: output.trim().split('\n').at(-1) };
  } catch (error) {
    return { reason: String((error as { stderr?: unknown }).stderr ?? error).trim() };
  }
}
