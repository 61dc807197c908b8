import type { EngineStoreSession } from '../engine-store';
import type { CategoryRow, IntentionRow } from '../engine-store-rows';
import { placeholders, type SqlConnection } from './sql-connection';
import { quoteIdentifier, scopeColumn } from './sql-dialect';
import { exactScope, readScope, scopeColumnList, scopeRange } from './sql-scope-clause';
import { type SqlStoreContext, withConflict } from './sql-store-context';

type LayerMethods = Pick<EngineStoreSession, 'upsertCategories' | 'listCategories' | 'getCategory' | 'insertIntention' | 'getLatestIntention' | 'listLatestIntentions' | 'deleteIntentionsCiting'>;

const nullable = (value: unknown) => (value === undefined ? null : value);

/** The Category and Intention layers (§2.3, §2.4) on SQL. */
export function sqlLayerMethods(connection: SqlConnection, context: SqlStoreContext): LayerMethods {
  const { dialect, fields } = context;
  const categories = dialect.table('categories');
  const intentions = dialect.table('intentions');
  const scopeColumns = scopeColumnList(fields);
  const scopeOrder = scopeColumns.join(', ');

  const readCategory = (row: Record<string, unknown>): CategoryRow => ({
    scope: readScope(fields, row),
    key: String(row.key),
    name: String(row.name),
    description: String(row.description),
    summary: row.summary === null || row.summary === undefined ? undefined : String(row.summary),
    anchorItemIds: dialect.readJson<string[]>(row.anchor_item_ids),
    itemCount: Number(row.item_count),
    taxonomyVersion: String(row.taxonomy_version),
    updatedAt: String(row.updated_at),
  });
  const readIntention = (row: Record<string, unknown>): IntentionRow => ({
    id: String(row.id),
    scope: readScope(fields, row),
    version: Number(row.version),
    goals: dialect.readJson<string[]>(row.goals),
    constraints: dialect.readJson<string[]>(row.constraints),
    progress: dialect.readJson<string[]>(row.progress),
    categoryKeys: dialect.readJson<string[]>(row.category_keys),
    sourceItemIds: dialect.readJson<string[]>(row.source_item_ids),
    pipelineRevision: Number(row.pipeline_revision),
    createdAt: String(row.created_at),
  });

  return {
    async upsertCategories(rows) {
      const columns = [...scopeColumns, 'key', 'name', 'description', 'summary', 'anchor_item_ids', 'item_count', 'taxonomy_version', 'updated_at'];
      const updates = ['name', 'description', 'summary', 'anchor_item_ids', 'item_count', 'taxonomy_version', 'updated_at'].map((column) => `${column} = excluded.${column}`);
      for (const category of rows) {
        await connection.run(
          `INSERT INTO ${categories} (${columns.join(', ')}) VALUES (${placeholders(columns.length)})
           ON CONFLICT (${scopeOrder}, key) DO UPDATE SET ${updates.join(', ')}`,
          [
            ...exactScope(fields, category.scope).params,
            category.key,
            category.name,
            category.description,
            nullable(category.summary),
            dialect.writeJson(category.anchorItemIds),
            category.itemCount,
            category.taxonomyVersion,
            category.updatedAt,
          ],
        );
      }
    },

    async listCategories(range) {
      const where = scopeRange(fields, range);
      return (await connection.all<Record<string, unknown>>(`SELECT * FROM ${categories} WHERE ${where.sql} ORDER BY ${scopeOrder}, key`, where.params)).map(readCategory);
    },

    async getCategory(scope, key) {
      const where = exactScope(fields, scope);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${categories} WHERE ${where.sql} AND key = ?`, [...where.params, key]);
      return rows[0] === undefined ? undefined : readCategory(rows[0]);
    },

    async insertIntention(intention) {
      const columns = [...scopeColumns, 'id', 'version', 'goals', 'constraints', 'progress', 'category_keys', 'source_item_ids', 'pipeline_revision', 'created_at'];
      await withConflict(context, `Intention version ${intention.version} of this scope exists already: another writer adjusted it meanwhile.`, () =>
        connection.run(`INSERT INTO ${intentions} (${columns.join(', ')}) VALUES (${placeholders(columns.length)})`, [
          ...exactScope(fields, intention.scope).params,
          intention.id,
          intention.version,
          dialect.writeJson(intention.goals),
          dialect.writeJson(intention.constraints),
          dialect.writeJson(intention.progress),
          dialect.writeJson(intention.categoryKeys),
          dialect.writeJson(intention.sourceItemIds),
          intention.pipelineRevision,
          intention.createdAt,
        ]),
      );
    },

    async getLatestIntention(scope) {
      const where = exactScope(fields, scope);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${intentions} WHERE ${where.sql} ORDER BY version DESC LIMIT 1`, where.params);
      return rows[0] === undefined ? undefined : readIntention(rows[0]);
    },

    async listLatestIntentions(range) {
      const where = scopeRange(fields, range, 'outer_row.');
      const sameScope = fields.map((field) => `inner_row.${scopeColumn(field)} = outer_row.${scopeColumn(field)}`).join(' AND ');
      const rows = await connection.all<Record<string, unknown>>(
        `SELECT outer_row.* FROM ${intentions} AS outer_row WHERE ${where.sql}
         AND outer_row.version = (SELECT max(inner_row.version) FROM ${intentions} AS inner_row WHERE ${sameScope})
         ORDER BY ${fields.map((field) => `outer_row.${scopeColumn(field)}`).join(', ')}`,
        where.params,
      );
      return rows.map(readIntention);
    },

    async deleteIntentionsCiting(scope, itemIds) {
      const where = exactScope(fields, scope);
      const cited = new Set(itemIds);
      const rows = await connection.all<Record<string, unknown>>(`SELECT * FROM ${intentions} WHERE ${where.sql}`, where.params);
      const doomed = rows.map(readIntention).filter((intention) => intention.sourceItemIds.some((id) => cited.has(id)));
      for (const intention of doomed) {
        await connection.run(`DELETE FROM ${intentions} WHERE ${where.sql} AND ${quoteIdentifier('id')} = ${placeholders(1)}`, [...where.params, intention.id]);
      }
      return doomed.length;
    },
  };
}
