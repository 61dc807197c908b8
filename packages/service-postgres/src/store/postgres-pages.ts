import type { MemoryStorePage, MemoryStorePageRequest } from '@memplane/service';
import type { PostgresConnection } from './postgres-connection';
import { bind, type FilterQuery } from './postgres-filters';
import type { Row } from './postgres-rows';

/** Reads one keyset page of a filtered log table: newest first by position, `after` excluded. */
export type PostgresPager = <Entry>(query: FilterQuery, request: MemoryStorePageRequest, toEntry: (row: Row) => Entry) => Promise<MemoryStorePage<Entry>>;

/** The pager of one store: `table` qualifies the table names of its schema. */
export function createPostgresPager(connection: PostgresConnection, table: (name: string) => string): PostgresPager {
  return async (query, request, toEntry) => {
    const limit = Math.max(1, Math.min(500, Math.floor(request.limit)));
    const where = [...query.where];
    if (request.after !== undefined) where.push(`position < ${bind(query, request.after)}`);
    const sql = `SELECT * FROM ${table(query.table)} WHERE ${where.join(' AND ')} ORDER BY position DESC LIMIT ${bind(query, limit + 1)}`;
    const rows = await connection.query<Row>(sql, query.values);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(toEntry),
      ...(rows.length > limit && last !== undefined ? { nextAfter: Number(last.position) } : {}),
    };
  };
}
