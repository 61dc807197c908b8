import type { MemoryTokenStore } from '../memory-token-store';
import { jsonAsTextCodec, type StoreRow } from '../support/store-row-codec';
import { parseRevokedAt, parseTokenKey, parseTokenRow, rowToToken, tokenColumnList, tokenValues } from '../support/token-rows';
import type { SqliteConnection } from './sqlite-connection';

/**
 * The token table on SQLite. Every call reads the file: no cache, so a revocation another
 * process commits is seen by the next `findTokenByHash` here.
 */
export function createSqliteTokenMethods(connection: SqliteConnection): MemoryTokenStore {
  const { prepare } = connection;
  return {
    async insertToken(row) {
      const valid = parseTokenRow(row);
      // DO NOTHING on any unique constraint (id or hash): the insert is all or nothing.
      const result = prepare(`INSERT INTO memory_tokens (${tokenColumnList}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(tokenValues(valid));
      return result.changes > 0;
    },

    async findTokenByHash(hash) {
      const row = prepare(`SELECT ${tokenColumnList} FROM memory_tokens WHERE hash = ?`).get(parseTokenKey(hash, 'hash')) as StoreRow | undefined;
      return row === undefined ? undefined : rowToToken(row, jsonAsTextCodec);
    },

    async listTokens() {
      // Times are stored normalised, so text order is time order.
      const rows = prepare(`SELECT ${tokenColumnList} FROM memory_tokens ORDER BY created_at, id`).all() as StoreRow[];
      return rows.map((row) => rowToToken(row, jsonAsTextCodec));
    },

    async revokeToken(id, revokedAt) {
      const result = prepare('UPDATE memory_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(parseRevokedAt(revokedAt), parseTokenKey(id, 'id'));
      return result.changes > 0;
    },
  };
}
