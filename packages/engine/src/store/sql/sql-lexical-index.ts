import type { ItemRow } from '../engine-store-rows';
import type { EngineLexicalSource } from '../lexical/lexical-search';
import type { SqlConnection } from './sql-connection';
import type { SqlStoreContext } from './sql-store-context';

/**
 * The lexical index of a SQL store, on the database's own index: FTS5 on SQLite
 * (`SqliteLexicalIndex` of `@memplane/rules/sqlite`), a term table on Postgres. Both keep the
 * corpus statistics and the neighbour windows on write, in the writer's transaction, and place
 * items as `sql-lexical-places` numbers them.
 */
export interface SqlLexicalIndex {
  /**
   * Creates its tables (`create`) or checks they exist (`validate`), in `open`'s transaction. On
   * create, the items of a store written before the index had places are indexed, in write order.
   */
  provision(connection: SqlConnection, context: SqlStoreContext, ddlMode: 'create' | 'validate'): Promise<void>;
  /** Indexes items whose rows were just inserted. */
  insert(connection: SqlConnection, context: SqlStoreContext, items: readonly ItemRow[]): Promise<void>;
  /** Indexes again an item whose tokens changed, in the same place. */
  reindex(connection: SqlConnection, context: SqlStoreContext, previous: ItemRow, next: ItemRow): Promise<void>;
  /** Takes out items whose rows were just deleted; their bytes leave the index's tables. */
  remove(connection: SqlConnection, context: SqlStoreContext, items: ReadonlyArray<Pick<ItemRow, 'id' | 'scope' | 'lexicalTokens'>>): Promise<void>;
  /** What `searchLexicalIndex` reads, on one connection. */
  source(connection: SqlConnection, context: SqlStoreContext): EngineLexicalSource;
}
