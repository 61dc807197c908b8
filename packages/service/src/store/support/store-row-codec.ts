/** A row as a driver returns it: column name to value, SQL NULL as `null`. */
export type StoreRow = Record<string, unknown>;

/** What the SQL type of a column is, in terms both stores map to their own types. */
export type StoreColumnType = 'text' | 'json' | 'integer' | 'real' | 'time' | 'boolean';

/** A column of a table the stores write in batches, in insert order. */
export interface StoreColumn {
  /** The column name. */
  readonly name: string;
  /** Its type: `json` values are bound as JSON text, `boolean` ones as 1 or 0. */
  readonly type: StoreColumnType;
}

/**
 * How a driver returns JSON columns: better-sqlite3 gives the stored text back, pg parses
 * `json` columns itself (so a stored JSON string comes back as a string, not as its text).
 */
export interface StoreRowCodec {
  /** The value of a JSON column, `undefined` for SQL NULL. */
  readJson(value: unknown): unknown;
}

/** JSON columns come back as their text (SQLite). */
export const jsonAsTextCodec: StoreRowCodec = {
  readJson: (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : undefined),
};

/** JSON columns come back already parsed by the driver (pg). */
export const jsonParsedCodec: StoreRowCodec = {
  readJson: (value) => (value === null ? undefined : value),
};

/** Builds a column list from `[name, type]` pairs. */
export function storeColumns(pairs: ReadonlyArray<readonly [name: string, type: StoreColumnType]>): readonly StoreColumn[] {
  return pairs.map(([name, type]) => ({ name, type }));
}

export const text = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));
export const number = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
export const orNull = <Value>(value: Value | undefined): Value | null => (value === undefined ? null : value);
/** A time column as ISO 8601: SQLite stores the text, pg returns a `Date` for `timestamptz`. */
export const time = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
export const optionalTime = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : time(value));
/** A boolean column: SQLite stores 1 or 0, pg returns `true` or `false`. */
export const flag = (value: unknown): boolean => value === true || value === 1;
export const jsonOrNull = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

// An empty list is the common value of list columns: its text is known without serialising.
export const jsonList = (value: readonly unknown[]): string => (value.length === 0 ? '[]' : JSON.stringify(value));

/** Removes the keys whose value is `undefined`: entries leave absent fields out entirely. */
export function compact<Entry extends object>(entry: Entry): Entry {
  for (const key of Object.keys(entry) as Array<keyof Entry>) if (entry[key] === undefined) delete entry[key];
  return entry;
}
