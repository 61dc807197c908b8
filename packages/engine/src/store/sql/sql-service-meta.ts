import type { JsonValue } from '@memplane/core';
import type { ServiceMetaRow } from '../engine-store-rows';
import type { SqlConnection } from './sql-connection';
import type { SqlDialect } from './sql-dialect';

interface MetaRecord {
  scope_schema_hash: string;
  scope_fields: unknown;
  boundary_fields: unknown;
  ddl_version: number | string;
  taxonomy_version: string;
  provider_summary: unknown;
  created_at: string;
}

/** The single service meta row, or undefined before the first `create`. */
export async function readServiceMeta(connection: SqlConnection, dialect: SqlDialect): Promise<ServiceMetaRow | undefined> {
  const [row] = await connection.all<MetaRecord>(`SELECT * FROM ${dialect.table('service_meta')} WHERE id = 1`);
  if (row === undefined) return undefined;
  return {
    scopeSchemaHash: row.scope_schema_hash,
    scopeFields: dialect.readJson<string[]>(row.scope_fields),
    boundaryFields: dialect.readJson<string[]>(row.boundary_fields),
    ddlVersion: Number(row.ddl_version),
    taxonomyVersion: row.taxonomy_version,
    providerSummary: dialect.readJson<JsonValue>(row.provider_summary),
    createdAt: row.created_at,
  };
}

/** Records the service meta once; a concurrent first open that lost the race keeps the winner's row. */
export async function writeServiceMeta(connection: SqlConnection, dialect: SqlDialect, meta: ServiceMetaRow): Promise<void> {
  await connection.run(
    `INSERT INTO ${dialect.table('service_meta')} (id, scope_schema_hash, scope_fields, boundary_fields, ddl_version, taxonomy_version, provider_summary, created_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [
      meta.scopeSchemaHash,
      dialect.writeJson(meta.scopeFields),
      dialect.writeJson(meta.boundaryFields),
      meta.ddlVersion,
      meta.taxonomyVersion,
      dialect.writeJson(meta.providerSummary),
      meta.createdAt,
    ],
  );
}
