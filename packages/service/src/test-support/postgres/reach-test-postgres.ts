import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The PostgreSQL server tests of other packages use: `scripts/ensure-postgres.sh` starts the
 * machine's cluster when it is stopped (or reads `MEMPLANE_TEST_POSTGRES_URL`) and prints its
 * connection string. Without one, `reason` says why, for a test that skips visibly.
 */
export function reachTestPostgres(): { url?: string; reason?: string } {
  const script = fileURLToPath(new URL('../../../scripts/ensure-postgres.sh', import.meta.url));
  try {
    const lines = execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).trim().split('\n');
    return { url: lines.at(-1) };
  } catch (error) {
    return { reason: `no PostgreSQL server: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` };
  }
}
