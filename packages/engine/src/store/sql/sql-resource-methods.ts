import type { JsonValue } from '@memplane/core';
import type { EngineStoreSession } from '../engine-store';
import type { ResourceRow, SegmentRow } from '../engine-store-rows';
import { placeholders, type SqlConnection } from './sql-connection';
import { exactScope, readScope, scopeColumnList } from './sql-scope-clause';
import { chunks, type SqlStoreContext, withConflict } from './sql-store-context';

type ResourceMethods = Pick<EngineStoreSession, 'findResourceByHash' | 'insertResource' | 'getResource' | 'getSegments' | 'deleteResource'>;

const nullable = (value: unknown) => (value === undefined ? null : value);
const optional = <T>(value: unknown): T | undefined => (value === null || value === undefined ? undefined : (value as T));

/** Resources and their segments (§2.1) on SQL. */
export function sqlResourceMethods(connection: SqlConnection, context: SqlStoreContext): ResourceMethods {
  const { dialect, fields } = context;
  const resources = dialect.table('resources');
  const segments = dialect.table('segments');
  const scopeColumns = scopeColumnList(fields);

  const readResource = (row: Record<string, unknown>): ResourceRow => ({
    id: String(row.id),
    scope: readScope(fields, row),
    modality: row.modality as ResourceRow['modality'],
    content: optional<string>(row.content),
    uri: optional<string>(row.uri),
    mimeType: optional<string>(row.mime_type),
    metadata: dialect.readJson<Record<string, JsonValue>>(row.metadata),
    contentHash: String(row.content_hash),
    pipelineRevision: Number(row.pipeline_revision),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  });
  const readSegment = (row: Record<string, unknown>): SegmentRow => ({
    id: String(row.id),
    resourceId: String(row.resource_id),
    scope: readScope(fields, row),
    ordinal: Number(row.ordinal),
    text: String(row.text),
    start: Number(row.start_offset),
    end: Number(row.end_offset),
    role: optional<string>(row.role),
    page: row.page === null || row.page === undefined ? undefined : Number(row.page),
    occurredAt: optional<string>(row.occurred_at),
  });

  return {
    async findResourceByHash(scope, contentHash, pipelineRevision) {
      const where = exactScope(fields, scope);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${resources} WHERE ${where.sql} AND content_hash = ? AND pipeline_revision = ?`, [
        ...where.params,
        contentHash,
        pipelineRevision,
      ]);
      return rows[0] === undefined ? undefined : readResource(rows[0]);
    },

    async insertResource(resource, rows) {
      const scope = exactScope(fields, resource.scope);
      // The unique (scope, content hash, revision) index makes a concurrent memorize of the same resource lose here.
      await withConflict(context, `A resource with this content was memorized in this scope under pipeline revision ${resource.pipelineRevision} meanwhile.`, () =>
        connection.run(
          `INSERT INTO ${resources} (${[...scopeColumns, 'id', 'modality', 'content', 'uri', 'mime_type', 'metadata', 'content_hash', 'pipeline_revision', 'created_at', 'updated_at'].join(', ')})
           VALUES (${placeholders(fields.length + 10)})`,
          [
            ...scope.params,
            resource.id,
            resource.modality,
            nullable(resource.content),
            nullable(resource.uri),
            nullable(resource.mimeType),
            dialect.writeJson(resource.metadata),
            resource.contentHash,
            resource.pipelineRevision,
            resource.createdAt,
            resource.updatedAt,
          ],
        ),
      );
      const segmentColumns = [...scopeColumns, 'id', 'resource_id', 'ordinal', 'text', 'start_offset', 'end_offset', 'role', 'page', 'occurred_at'];
      for (const batch of chunks(rows, 200)) {
        const params = batch.flatMap((segment) => [
          ...exactScope(fields, segment.scope).params,
          segment.id,
          segment.resourceId,
          segment.ordinal,
          segment.text,
          segment.start,
          segment.end,
          nullable(segment.role),
          nullable(segment.page),
          nullable(segment.occurredAt),
        ]);
        const row = `(${placeholders(segmentColumns.length)})`;
        await connection.run(`INSERT INTO ${segments} (${segmentColumns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}`, params);
      }
    },

    async getResource(scope, resourceId) {
      const where = exactScope(fields, scope);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${resources} WHERE ${where.sql} AND id = ?`, [...where.params, resourceId]);
      return rows[0] === undefined ? undefined : readResource(rows[0]);
    },

    async getSegments(scope, resourceId) {
      const where = exactScope(fields, scope);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${segments} WHERE ${where.sql} AND resource_id = ? ORDER BY ordinal`, [...where.params, resourceId]);
      return rows.map(readSegment);
    },

    async deleteResource(scope, resourceId) {
      const where = exactScope(fields, scope);
      await connection.run(`DELETE FROM ${segments} WHERE ${where.sql} AND resource_id = ?`, [...where.params, resourceId]);
      return (await connection.run(`DELETE FROM ${resources} WHERE ${where.sql} AND id = ?`, [...where.params, resourceId])) > 0;
    },
  };
}
