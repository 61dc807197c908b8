import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';

/** The test server's connection string, from the global setup; undefined when there is none. */
export const postgresUrl: string | undefined = inject('postgresUrl');

/** Why there is no test server, when there is none. */
export const postgresUnavailableReason: string | undefined = inject('postgresUnavailableReason');

/**
 * A describe block that needs Postgres. Without a server it is skipped, and its title says why,
 * so the skip shows in every report.
 */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  const url = postgresUrl;
  if (url === undefined) {
    describe.skip(`${name} (skipped: no Postgres server: ${postgresUnavailableReason ?? 'unknown reason'})`, () => body(''));
    return;
  }
  describe(name, () => body(url));
}

let schemas = 0;

/** A schema name no other test, run or process uses. */
export function uniqueSchemaName(label: string): string {
  schemas += 1;
  return `test_${label}_${process.pid}_${schemas}_${randomBytes(3).toString('hex')}`;
}

/** Drops test schemas with everything in them. */
export async function dropSchemas(url: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}
