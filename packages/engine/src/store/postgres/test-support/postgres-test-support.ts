import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test server's connection string, or undefined when there is none. */
    postgresUrl: string | undefined;
    /** Why there is no server, when there is none. */
    postgresUnavailableReason: string | undefined;
  }
}

// The server, the skip and the schema helpers are the ones the Postgres tests of `@memplane/service` use
// (the engine shares its global setup), so both packages skip and clean up the same way.
export {
  describeWithPostgres,
  dropSchemas,
  uniqueSchemaName,
} from '../../../../../service/src/test-support/postgres/postgres-test-database';

let shared: Promise<PGlite> | undefined;

/** One in-memory PGlite with pgvector per test file: starting one takes seconds, a schema per test isolates them. */
export function sharedPglite(): Promise<PGlite> {
  shared ??= PGlite.create({ extensions: { vector } });
  return shared;
}
