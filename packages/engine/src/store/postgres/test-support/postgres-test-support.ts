import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import pg from 'pg';
import { describe, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test server's connection string, or undefined when there is none. */
    postgresUrl: string | undefined;
    /** Why there is no server, when there is none. */
    postgresUnavailableReason: string | undefined;
  }
}

/**
 * A describe block that needs the machine's PostgreSQL (started by the global setup shared with
 * `@memplane/service-postgres`). Without a server it is skipped, and its title says why.
 */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  const url = inject('postgresUrl');
  if (url === undefined) {
    describe.skip(`${name} (skipped: no Postgres server: ${inject('postgresUnavailableReason') ?? 'unknown reason'})`, () => body(''));
    return;
  }
  describe(name, () => body(url));
}

let schemas = 0;

/** A schema name no other test, run or process uses. */
export function uniqueSchemaName(label: string): string {
  schemas += 1;
  return `engine_${label}_${process.pid}_${schemas}_${randomBytes(3).toString('hex')}`;
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

let shared: Promise<PGlite> | undefined;

/** One in-memory PGlite with pgvector per test file: starting one takes seconds, a schema per test isolates them. */
export function sharedPglite(): Promise<PGlite> {
  shared ??= PGlite.create({ extensions: { vector } });
  return shared;
}
