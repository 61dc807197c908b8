import type { MemoryTokenStore } from '../memory-token-store';
import { jsonParsedCodec, type StoreRow } from '../support/store-row-codec';
import { parseRevokedAt, parseTokenKey, parseTokenRow, rowToToken, tokenColumnList, tokenValues } from '../support/token-rows';
import { storeCall } from './postgres-binding-methods';
import type { PostgresConnection } from './postgres-connection';

/**
 * The token table on Postgres: each call is one statement on the database, no cache, so a
 * revocation made by any process is seen by the next `findTokenByHash` of every other.
 */
export function createPostgresTokenMethods(connection: PostgresConnection, table: (name: string) => string): MemoryTokenStore {
  const tokens = table('memory_tokens');
  return {
    insertToken: async (row) => {
      const valid = parseTokenRow(row);
      return storeCall('insert a token', async () => {
        // DO NOTHING on any unique constraint (id or hash): the insert is all or nothing.
        const rows = await connection.query(
          `INSERT INTO ${tokens} (${tokenColumnList}) VALUES ($1, $2, $3, $4::json, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
          tokenValues(valid),
        );
        return rows.length > 0;
      });
    },

    findTokenByHash: async (hash) => {
      const key = parseTokenKey(hash, 'hash');
      return storeCall('find a token', async () => {
        const [row] = await connection.query<StoreRow>(`SELECT ${tokenColumnList} FROM ${tokens} WHERE hash = $1`, [key], 'token-by-hash');
        return row === undefined ? undefined : rowToToken(row, jsonParsedCodec);
      });
    },

    listTokens: () =>
      storeCall('list tokens', async () => {
        const rows = await connection.query<StoreRow>(`SELECT ${tokenColumnList} FROM ${tokens} ORDER BY created_at, id`);
        return rows.map((row) => rowToToken(row, jsonParsedCodec));
      }),

    revokeToken: async (id, revokedAt) => {
      const at = parseRevokedAt(revokedAt);
      const key = parseTokenKey(id, 'id');
      return storeCall('revoke a token', async () => {
        const rows = await connection.query(`UPDATE ${tokens} SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id`, [at, key]);
        return rows.length > 0;
      });
    },
  };
}
