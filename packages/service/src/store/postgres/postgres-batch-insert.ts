import type { StoreColumn, StoreColumnType } from '../support/store-row-codec';

const arrayTypes: Record<StoreColumnType, string> = {
  text: 'text[]',
  // JSON travels as text and is cast per row: `json[]` would parse every element twice.
  json: 'text[]',
  integer: 'integer[]',
  real: 'double precision[]',
  time: 'timestamptz[]',
  boolean: 'boolean[]',
};

/**
 * `INSERT INTO <table> (<columns>) SELECT … FROM unnest($1::text[], $2::integer[], …)`: a batch
 * of any size in one prepared statement, one typed array per column. Postgres reads arrays
 * with each type's input function, far cheaper than parsing the batch as JSON.
 */
export function batchInsertSql(table: string, columns: readonly StoreColumn[]): string {
  const names = columns.map((column) => column.name).join(', ');
  const selected = columns.map((column) => (column.type === 'json' ? `${column.name}::json` : column.name)).join(', ');
  const arrays = columns.map((column, index) => `$${index + 1}::${arrayTypes[column.type]}`).join(', ');
  return `INSERT INTO ${table} (${names}) SELECT ${selected} FROM unnest(${arrays}) AS batch (${names})`;
}

// Control characters need escapes JSON spells differently; surrogates need them when unpaired.
const controlCharacter = /[\u0000-\u001f\ud800-\udfff]/;
const escaped = /["\\]/g;

/**
 * One element of an array literal: quoted text (so no word is special), digits, or NULL.
 * Inside quotes a backslash escapes the next character and `"` ends the text, which is what
 * JSON quoting does too, as long as it has no control character to write as `\n` or `\u…`.
 */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return controlCharacter.test(text) ? `"${text.replace(escaped, '\\$&')}"` : JSON.stringify(text);
}

/**
 * The parameters of {@link batchInsertSql}: `values` holds `rows` rows of `width` values one
 * after the other, and each column becomes one array literal. Building the literals here
 * costs less than letting the driver serialise arrays, and sends the same text.
 */
export function batchParameters(values: readonly unknown[], rows: number, width: number): string[] {
  const parameters = new Array<string>(width);
  const elements = new Array<string>(rows);
  for (let column = 0; column < width; column += 1) {
    for (let row = 0; row < rows; row += 1) elements[row] = element(values[row * width + column]);
    parameters[column] = `{${elements.join(',')}}`;
  }
  return parameters;
}

/** {@link batchParameters} for entries that map to one array of values each. */
export function batchParametersOf<Entry>(entries: readonly Entry[], toValues: (entry: Entry) => unknown[], width: number): string[] {
  const values = new Array<unknown>(entries.length * width);
  entries.forEach((entry, row) => {
    const rowValues = toValues(entry);
    for (let column = 0; column < width; column += 1) values[row * width + column] = rowValues[column];
  });
  return batchParameters(values, entries.length, width);
}
