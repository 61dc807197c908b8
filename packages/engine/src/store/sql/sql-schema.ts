import type { SqlDialect } from './sql-dialect';
import { quoteIdentifier, scopeColumn } from './sql-dialect';

/**
 * The engine's tables (§5.2 dynamic DDL): every scoped table starts with one text column per
 * scope field, in the scope schema's order, and every index of a scoped table starts with those
 * columns, so a query for one scope (or a range of them) walks one prefix of the index.
 */

/** The version of this table layout, recorded in `service_meta.ddl_version`. */
export const sqlDdlVersion = 1;

interface TableSpec {
  readonly name: string;
  readonly scoped: boolean;
  /** Engine columns: name and type, where `JSON` and `REAL` are replaced per dialect. */
  readonly columns: ReadonlyArray<readonly [string, string]>;
  readonly primaryKey: readonly string[];
  /** Whether the primary key starts with the scope columns (rows keyed within a scope, not by a global id). */
  readonly keyedInScope?: boolean;
  /** Unique indexes after the scope prefix (each also starts with the scope columns). */
  readonly unique?: ReadonlyArray<readonly string[]>;
  /** Plain indexes after the scope prefix. */
  readonly indexes?: ReadonlyArray<readonly string[]>;
  /** Indexes earlier layouts had, dropped when present. */
  readonly droppedIndexes?: readonly string[];
}

/** The scoped and service-wide tables, in creation order. */
export const engineTables: readonly TableSpec[] = [
  {
    name: 'service_meta',
    scoped: false,
    columns: [
      ['id', 'INTEGER NOT NULL'],
      ['scope_schema_hash', 'TEXT NOT NULL'],
      ['scope_fields', 'JSON NOT NULL'],
      ['boundary_fields', 'JSON NOT NULL'],
      ['ddl_version', 'INTEGER NOT NULL'],
      ['taxonomy_version', 'TEXT NOT NULL'],
      ['provider_summary', 'JSON NOT NULL'],
      ['created_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['id'],
  },
  {
    name: 'resources',
    scoped: true,
    columns: [
      ['id', 'TEXT NOT NULL'],
      ['modality', 'TEXT NOT NULL'],
      ['content', 'TEXT'],
      ['uri', 'TEXT'],
      ['mime_type', 'TEXT'],
      ['metadata', 'JSON NOT NULL'],
      ['content_hash', 'TEXT NOT NULL'],
      ['pipeline_revision', 'INTEGER NOT NULL'],
      ['created_at', 'TEXT NOT NULL'],
      ['updated_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['id'],
    // The idempotency key of memorize: two writers of the same resource cannot both insert it.
    unique: [['content_hash', 'pipeline_revision']],
  },
  {
    name: 'segments',
    scoped: true,
    columns: [
      ['id', 'TEXT NOT NULL'],
      ['resource_id', 'TEXT NOT NULL'],
      ['ordinal', 'INTEGER NOT NULL'],
      ['text', 'TEXT NOT NULL'],
      ['start_offset', 'INTEGER NOT NULL'],
      ['end_offset', 'INTEGER NOT NULL'],
      ['role', 'TEXT'],
      ['page', 'INTEGER'],
      ['occurred_at', 'TEXT'],
    ],
    primaryKey: ['id'],
    indexes: [['resource_id', 'ordinal']],
  },
  {
    name: 'items',
    scoped: true,
    columns: [
      ['id', 'TEXT NOT NULL'],
      ['text', 'TEXT NOT NULL'],
      ['summary', 'TEXT'],
      ['kind', 'TEXT NOT NULL'],
      ['status', 'TEXT NOT NULL'],
      ['pii_risk', 'INTEGER NOT NULL'],
      ['confidence', 'REAL NOT NULL'],
      ['stability', 'REAL NOT NULL'],
      ['version', 'INTEGER NOT NULL'],
      ['evidence', 'JSON NOT NULL'],
      ['category_keys', 'JSON NOT NULL'],
      ['metadata', 'JSON NOT NULL'],
      ['text_hash', 'TEXT NOT NULL'],
      ['lexical_tokens', 'JSON NOT NULL'],
      ['token_count', 'INTEGER NOT NULL'],
      ['use_count', 'INTEGER NOT NULL'],
      ['last_used_at', 'TEXT'],
      ['expires_at', 'TEXT'],
      ['merged_into', 'TEXT'],
      ['embedding_model', 'TEXT'],
      ['scope_schema_hash', 'TEXT NOT NULL'],
      ['taxonomy_version', 'TEXT NOT NULL'],
      ['pipeline_revision', 'INTEGER NOT NULL'],
      ['created_at', 'TEXT NOT NULL'],
      ['updated_at', 'TEXT NOT NULL'],
      ['origin', 'JSON'],
    ],
    primaryKey: ['id'],
    indexes: [['created_at', 'id'], ['text_hash'], ['status', 'kind']],
    droppedIndexes: ['items_sequence'],
  },
  {
    name: 'categories',
    scoped: true,
    columns: [
      ['key', 'TEXT NOT NULL'],
      ['name', 'TEXT NOT NULL'],
      ['description', 'TEXT NOT NULL'],
      ['summary', 'TEXT'],
      ['anchor_item_ids', 'JSON NOT NULL'],
      ['item_count', 'INTEGER NOT NULL'],
      ['taxonomy_version', 'TEXT NOT NULL'],
      ['updated_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['key'],
    keyedInScope: true,
  },
  {
    name: 'intentions',
    scoped: true,
    columns: [
      ['id', 'TEXT NOT NULL'],
      ['version', 'INTEGER NOT NULL'],
      ['goals', 'JSON NOT NULL'],
      ['constraints', 'JSON NOT NULL'],
      ['progress', 'JSON NOT NULL'],
      ['category_keys', 'JSON NOT NULL'],
      ['source_item_ids', 'JSON NOT NULL'],
      ['pipeline_revision', 'INTEGER NOT NULL'],
      ['created_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['id'],
    unique: [['version']],
  },
  {
    name: 'pipeline_revisions',
    scoped: false,
    columns: [
      ['revision', 'INTEGER NOT NULL'],
      ['change', 'TEXT NOT NULL'],
      ['definition', 'JSON NOT NULL'],
      ['definition_hash', 'TEXT NOT NULL'],
      ['created_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['revision'],
  },
  {
    name: 'run_log',
    scoped: false,
    columns: [
      ['id', 'TEXT NOT NULL'],
      ['flow', 'TEXT NOT NULL'],
      ['status', 'TEXT NOT NULL'],
      ['pipeline_revision', 'INTEGER NOT NULL'],
      ['scope_range', 'JSON NOT NULL'],
      ['input_summary', 'TEXT NOT NULL'],
      ['output_summary', 'TEXT NOT NULL'],
      ['steps', 'JSON NOT NULL'],
      ['llm_usage', 'JSON NOT NULL'],
      ['failures', 'JSON NOT NULL'],
      ['started_at', 'TEXT NOT NULL'],
      ['finished_at', 'TEXT NOT NULL'],
    ],
    primaryKey: ['id'],
  },
];

/** The names of the scoped tables (the ones `validate` checks for scope columns). */
export const scopedTableNames: readonly string[] = engineTables.filter((table) => table.scoped).map((table) => table.name);

function columnType(dialect: SqlDialect, declared: string): string {
  return declared.replace(/^JSON/, dialect.jsonType).replace(/^REAL/, dialect.realType);
}

/** `CREATE TABLE IF NOT EXISTS` and `CREATE INDEX IF NOT EXISTS` statements for one scope schema. */
export function engineTableStatements(dialect: SqlDialect, scopeFields: readonly string[]): string[] {
  const scope = scopeFields.map(scopeColumn);
  const statements: string[] = [];
  for (const table of engineTables) {
    const prefix = table.scoped ? scope : [];
    const columns = [
      ...prefix.map((column) => `${column} TEXT NOT NULL`),
      ...table.columns.map(([name, type]) => `${quoteIdentifier(name)} ${columnType(dialect, type)}`),
    ];
    const ownKey = table.primaryKey.map(quoteIdentifier);
    const keyColumns = [...(table.keyedInScope === true ? prefix : []), ...ownKey];
    statements.push(`CREATE TABLE IF NOT EXISTS ${dialect.table(table.name)} (${columns.join(', ')}, PRIMARY KEY (${keyColumns.join(', ')}))`);
    const indexName = (suffix: string) => quoteIdentifier(`${table.name}_${suffix}`.slice(0, 63));
    const indexOn = (columnsAfter: readonly string[]) => [...prefix, ...columnsAfter.map(quoteIdentifier)].join(', ');
    // Postgres index names live in the table's schema; SQLite's in the database. Neither takes a schema-qualified name in CREATE INDEX.
    const onTable = dialect.table(table.name);
    table.unique?.forEach((columnsAfter, index) => statements.push(`CREATE UNIQUE INDEX IF NOT EXISTS ${indexName(`unique_${index}`)} ON ${onTable} (${indexOn(columnsAfter)})`));
    table.indexes?.forEach((columnsAfter, index) => statements.push(`CREATE INDEX IF NOT EXISTS ${indexName(`scope_${index}`)} ON ${onTable} (${indexOn(columnsAfter)})`));
    for (const dropped of table.droppedIndexes ?? []) statements.push(`DROP INDEX IF EXISTS ${dialect.table(dropped)}`);
    if (table.scoped && table.keyedInScope !== true && (table.indexes ?? []).length === 0 && (table.unique ?? []).length === 0) {
      statements.push(`CREATE INDEX IF NOT EXISTS ${indexName('scope')} ON ${onTable} (${indexOn([])})`);
    }
  }
  statements.push(`CREATE INDEX IF NOT EXISTS ${quoteIdentifier('run_log_recent')} ON ${dialect.table('run_log')} (${quoteIdentifier('started_at')}, ${quoteIdentifier('id')})`);
  return statements;
}
