import type { MemoryStorePage, MemoryStorePageRequest } from '../memory-service-records';
import { bindValue, copyFilterQuery, type StoreFilterQuery } from '../support/store-filters';
import type { StoreRow } from '../support/store-row-codec';
import type { PostgresConnection } from './postgres-connection';

/** Reads one keyset page of a filtered log table: newest first by position, `after` excluded. */
export type PostgresPager = <Entry>(query: StoreFilterQuery, request: MemoryStorePageRequest, toEntry: (row: StoreRow) => Entry) => Promise<MemoryStorePage<Entry>>;

/** The pager of one store: `table` qualifies the table names of its schema. */
export function createPostgresPager(connection: PostgresConnection, table: (name: string) => string): PostgresPager {
  return async (filtered, request, toEntry) => {
    const limit = Math.max(1, Math.min(500, Math.floor(request.limit)));
    const query = copyFilterQuery(filtered);
    if (request.after !== undefined) query.where.push(`position < ${bindValue(query, request.after)}`);
    const sql = `SELECT * FROM ${table(query.table)} WHERE ${query.where.join(' AND ')} ORDER BY position DESC LIMIT ${bindValue(query, limit + 1)}`;
    const rows = await connection.query<StoreRow>(sql, query.values);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(toEntry),
      ...(rows.length > limit && last !== undefined ? { nextAfter: Number(last.position) } : {}),
    };
  };
}
