import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test server's connection string, or undefined when there is none. */
    postgresUrl: string | undefined;
    /** Why there is no server, when there is none: the Postgres tests skip with this reason. */
    postgresUnavailableReason: string | undefined;
  }
}

const ensureScript = fileURLToPath(new URL('../../../scripts/ensure-postgres.sh', import.meta.url));

/**
 * Runs `scripts/ensure-postgres.sh` once per test run: it starts the machine's cluster when it is
 * stopped and creates the test role and database. Its connection string, or the reason it failed,
 * is provided to the tests, which skip visibly with that reason.
 */
export default function setup(project: TestProject): void {
  try {
    const output = execFileSync('sh', [ensureScript], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    const url = output.trim().split('\n').pop()?.trim();
    if (url === undefined || !url.startsWith('postgres')) throw new TypeError(`ensure-postgres.sh printed no connection string: ${output}`);
    project.provide('postgresUrl', url);
    project.provide('postgresUnavailableReason', undefined);
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const reason = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : error instanceof Error ? error.message : String(error);
    project.provide('postgresUrl', undefined);
    project.provide('postgresUnavailableReason', reason);
    process.stderr.write(`\n[postgres] Postgres tests will be skipped: ${reason}\n`);
  }
}
