import { MemoryConfigurationError } from '@memplane/core';
import type { EngineStoreOpenSpec } from '../engine-store';
import type { ServiceMetaRow } from '../engine-store-rows';
import type { SqlConnection } from './sql-connection';
import type { SqlDialect } from './sql-dialect';
import { scopedTableNames } from './sql-schema';
import { readServiceMeta, writeServiceMeta } from './sql-service-meta';

/** What a backend adds to `open`: its DDL and how to read a table's columns. */
export interface SqlProvisioning {
  readonly dialect: SqlDialect;
  /** Every CREATE statement of the backend (tables, indexes, full-text and vector tables), idempotent. */
  statements(scopeFields: readonly string[]): readonly string[];
  /** The column names of a table in order, or an empty list when the table does not exist. */
  listColumns(connection: SqlConnection, table: string): Promise<string[]>;
}

/**
 * `open` of the SQL stores (§5.2). `create` runs the DDL and records the service meta the first
 * time; `validate` creates nothing. Both then refuse, with `MemoryConfigurationError`, a store
 * whose recorded scope schema hash, scope fields or DDL version differ from the service's, or
 * whose tables carry other scope columns: the engine never migrates a scope schema itself.
 */
export async function provisionSqlStore(connection: SqlConnection, provisioning: SqlProvisioning, spec: EngineStoreOpenSpec): Promise<ServiceMetaRow> {
  const { dialect } = provisioning;
  const provisioned = (await provisioning.listColumns(connection, 'service_meta')).length > 0;
  // A recorded meta is compared before any DDL runs: indexes for another scope schema would fail half way.
  let stored = provisioned ? await readServiceMeta(connection, dialect) : undefined;
  if (stored !== undefined) refuseMismatch(stored, spec.meta);
  if (spec.ddlMode === 'validate' && !provisioned) {
    throw new MemoryConfigurationError({
      message: `ddlMode "validate" found no engine tables in this ${dialect.name} database; open it once with ddlMode "create", or point the store at the database that has them.`,
    });
  }
  if (spec.ddlMode === 'create') {
    for (const statement of provisioning.statements(spec.meta.scopeFields)) await connection.run(statement);
  }
  if (stored === undefined) {
    if (spec.ddlMode === 'validate') {
      throw new MemoryConfigurationError({ message: 'ddlMode "validate" found no service meta: the engine tables were never provisioned by an engine; open with ddlMode "create".' });
    }
    await writeServiceMeta(connection, dialect, spec.meta);
    stored = (await readServiceMeta(connection, dialect)) ?? spec.meta;
    refuseMismatch(stored, spec.meta);
  }
  const expected = spec.meta.scopeFields.map((field) => `scope_${field}`);
  for (const table of scopedTableNames) {
    const columns = await provisioning.listColumns(connection, table);
    if (columns.length === 0) throw new MemoryConfigurationError({ message: `The engine table ${table} is missing; open with ddlMode "create" to provision it.` });
    const scopeColumns = columns.filter((column) => column.startsWith('scope_') && column !== 'scope_schema_hash');
    if (scopeColumns.join(',') !== expected.join(',')) {
      throw new MemoryConfigurationError({
        message: `The engine table ${table} has scope columns (${scopeColumns.join(', ')}) where the scope schema needs (${expected.join(', ')}). Migrate or rebuild the store; the engine never changes a scope schema itself.`,
      });
    }
  }
  return stored;
}

function refuseMismatch(stored: ServiceMetaRow, wanted: ServiceMetaRow): void {
  if (stored.scopeSchemaHash !== wanted.scopeSchemaHash || stored.scopeFields.join('\u0000') !== wanted.scopeFields.join('\u0000')) {
    throw new MemoryConfigurationError({
      message: `The store was provisioned for scope schema ${stored.scopeSchemaHash} (fields ${stored.scopeFields.join(', ')}), not for this service's ${wanted.scopeSchemaHash} (fields ${wanted.scopeFields.join(', ')}). Migrate or rebuild the store; the engine never changes a scope schema itself.`,
    });
  }
  if (stored.ddlVersion !== wanted.ddlVersion) {
    throw new MemoryConfigurationError({ message: `The store's tables are of DDL version ${stored.ddlVersion}; this engine uses version ${wanted.ddlVersion}.` });
  }
}
