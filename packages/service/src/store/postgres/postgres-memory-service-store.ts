import { parseInput } from '@memplane/core';
import type { MemoryServiceStore } from '../memory-service-store';
import type pg from 'pg';
import { z } from 'zod';
import { createPostgresAccountingMethods } from './postgres-accounting-methods';
import { createPostgresBindingMethods, storeCall } from './postgres-binding-methods';
import { createPostgresConnection } from './postgres-connection';
import { createPostgresLogMethods } from './postgres-log-methods';
import { applyPostgresMigrations, quoteIdentifier } from './postgres-migrations';
import { createOperationHours } from './postgres-operation-hours';
import { createPostgresPager } from './postgres-pages';
import { createPostgresUsageMethods } from './postgres-usage-methods';
import { createPostgresRecordRegistryMethods } from './postgres-record-registry-methods';
import { createPostgresDeliveryKeyMethods } from './postgres-delivery-key-methods';
import { createPostgresTokenMethods } from './postgres-token-methods';

/** Settings of {@link createPostgresMemoryServiceStore}. Give `connectionString` or `pool`. */
export interface PostgresMemoryServiceStoreSettings {
  /** A libpq connection string, such as `postgres://user:password@host:5432/database`. The store opens and owns a pool. */
  connectionString?: string;
  /** A pool you own (shared with your application); the store never ends it. */
  pool?: pg.Pool;
  /**
   * The schema the tables live in, created by `migrate()` when missing. Lower-case letters,
   * digits and `_`, starting with a letter or `_`. Default `memplane`.
   */
  schema?: string;
  /** The most connections of a pool the store opens. Default 10. */
  maxConnections?: number;
}

const settingsSchema = z
  .strictObject({
    connectionString: z.string().min(1).max(4096).optional(),
    pool: z.custom<pg.Pool>((value) => typeof value === 'object' && value !== null && typeof (value as pg.Pool).connect === 'function', 'must be a pg Pool').optional(),
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1 to 63 of a-z, 0-9 and "_", starting with a letter or "_"').optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
  })
  .refine((settings) => (settings.connectionString === undefined) !== (settings.pool === undefined), {
    message: 'give exactly one of connectionString and pool',
    path: ['connectionString'],
  });

/**
 * The store on Postgres through `pg`: the same contract as the SQLite store (it passes the same
 * shared suite), for services that run on several machines. Each binding change is one
 * transaction with its activity entries; each log append is one statement, the whole batch
 * sent as one JSON parameter. The schema is versioned (`memplane_schema_migrations`) and
 * brought up to date by `migrate()`, which concurrent processes may call at once.
 */
export function createPostgresMemoryServiceStore(settings: PostgresMemoryServiceStoreSettings): MemoryServiceStore {
  const valid = parseInput(settingsSchema, settings, 'Postgres store settings', 'settings');
  const schema = valid.schema ?? 'memplane';
  const quoted = quoteIdentifier(schema);
  const table = (name: string) => `${quoted}.${name}`;
  const connection = createPostgresConnection({
    ...(valid.pool === undefined ? {} : { pool: valid.pool }),
    ...(valid.connectionString === undefined ? {} : { connectionString: valid.connectionString }),
    maxConnections: valid.maxConnections ?? 10,
  });
  const page = createPostgresPager(connection, table);
  const hours = createOperationHours(connection, table);

  return {
    kind: 'postgres',
    migrate: () => storeCall('migrate', async () => void (await applyPostgresMigrations(connection.transaction, schema))),
    close: () => connection.close(),
    ...createPostgresBindingMethods(connection, table),
    ...createPostgresLogMethods(connection, table, page, hours),
    ...createPostgresAccountingMethods(connection, table, page, hours),
    ...createPostgresUsageMethods(connection, table, hours),
    ...createPostgresRecordRegistryMethods(connection, table),
    ...createPostgresDeliveryKeyMethods(connection, table),
    ...createPostgresTokenMethods(connection, table),
  };
}
