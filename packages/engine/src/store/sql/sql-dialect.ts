import type { JsonValue } from '@memplane/core';
import { MemoryConfigurationError } from '@memplane/core';
import type { SqlDialectName } from './sql-connection';

/**
 * What differs between the SQLite and the Postgres statements: column types, JSON reads and
 * operators, the term column of lexical search, and table names (Postgres keeps the engine's
 * tables in a schema of their own). Everything is a parameterised fragment; no value is ever
 * spliced into SQL text.
 */
export interface SqlDialect {
  readonly name: SqlDialectName;
  /** The quoted, qualified name of a table. */
  table(name: string): string;
  readonly jsonType: string;
  readonly realType: string;
  /** A parameter value for a JSON column. */
  writeJson(value: unknown): unknown;
  /** A JSON column as read back (node-postgres and PGlite parse jsonb; SQLite returns text). */
  readJson<T = JsonValue>(value: unknown): T;
  /** True when the top-level `key` of the JSON object column equals the JSON value: two parameters, key then JSON text. */
  jsonKeyEquals(column: string): string;
  /** True when the JSON array column holds the string: one parameter. */
  jsonArrayHas(column: string): string;
  /**
   * A column the planner must not pick an index for, in a condition that only re-checks rows a key
   * lookup found (the scope of items fetched by id). Without statistics SQLite would rather walk
   * a whole scope through a scope-prefixed index than look 100 ids up; `+column` stops it.
   */
  recheck(column: string): string;
}

// 63 bytes is Postgres's identifier limit; longer names would be cut silently, so they are refused.
const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Quotes an identifier after checking it is one this package produced or accepted (fail closed). */
export function quoteIdentifier(name: string): string {
  if (!identifier.test(name)) {
    throw new MemoryConfigurationError({ message: `"${name}" is not usable as a SQL identifier: use 1 to 63 of A-Z, a-z, 0-9 and "_", not starting with a digit.` });
  }
  return `"${name}"`;
}

/** The column that holds a scope field: `scope_<field>`, so a scope field never collides with an engine column. */
export function scopeColumn(field: string): string {
  return quoteIdentifier(`scope_${field}`);
}

/** The SQLite dialect. */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  table: (name) => quoteIdentifier(name),
  jsonType: 'TEXT',
  realType: 'REAL',
  writeJson: (value) => JSON.stringify(value),
  readJson: <T>(value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T)),
  // json_each compares the key as a plain string (a key such as "$.a" is never read as a path);
  // the value is compared in its JSON text form, so 1, "1" and true stay different.
  jsonKeyEquals: (column) =>
    `EXISTS (SELECT 1 FROM json_each(${column}) AS entry WHERE entry.key = ? AND (CASE entry.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' WHEN 'object' THEN json(entry.value) WHEN 'array' THEN json(entry.value) ELSE json_quote(entry.atom) END) = ?)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) AS entry WHERE entry.value = ?)`,
  recheck: (column) => `+${column}`,
};

/** The Postgres dialect, its tables in `schema`. */
export function postgresDialect(schema: string): SqlDialect {
  const quotedSchema = quoteIdentifier(schema);
  return {
    name: 'postgres',
    table: (name) => `${quotedSchema}.${quoteIdentifier(name)}`,
    jsonType: 'JSONB',
    realType: 'DOUBLE PRECISION',
    writeJson: (value) => JSON.stringify(value),
    readJson: <T>(value: unknown) => value as T,
    jsonKeyEquals: (column) => `(${column} -> ?::text) = ?::jsonb`,
    jsonArrayHas: (column) => `${column} @> jsonb_build_array(?::text)`,
    recheck: (column) => column,
  };
}
