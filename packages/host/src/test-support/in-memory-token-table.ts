import type { MemoryTokenRow, MemoryTokenStore } from '@memplane/service/store';

/** A token table in memory, with the store's contract, and its rows open to a test that plays the attacker. */
export interface InMemoryTokenTable extends MemoryTokenStore {
  /** The rows as kept, to edit as someone with write access to the database would. */
  rows: MemoryTokenRow[];
  /** How many reads went to the table: verify must read on every call. */
  reads: number;
}

/** Creates an empty table. `failInsertAfter` makes the insert after that many succeed throw, to simulate a crash. */
export function createInMemoryTokenTable(options: { failInsertAfter?: number } = {}): InMemoryTokenTable {
  let inserts = 0;
  const table: InMemoryTokenTable = {
    rows: [],
    reads: 0,
    async insertToken(row) {
      if (options.failInsertAfter !== undefined && inserts >= options.failInsertAfter) throw new Error('the process died here');
      inserts += 1;
      if (table.rows.some((existing) => existing.id === row.id || existing.hash === row.hash)) return false;
      table.rows.push(structuredClone(row));
      return true;
    },
    async findTokenByHash(hash) {
      table.reads += 1;
      const row = table.rows.find((existing) => existing.hash === hash);
      return row === undefined ? undefined : structuredClone(row);
    },
    async listTokens() {
      table.reads += 1;
      return structuredClone(table.rows);
    },
    async revokeToken(id, revokedAt) {
      const row = table.rows.find((existing) => existing.id === id);
      if (row === undefined || row.revokedAt !== null) return false;
      row.revokedAt = revokedAt;
      return true;
    },
  };
  return table;
}
