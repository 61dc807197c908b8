/** One field of a provider's config, as the binding form lists it. */
export interface ConfigField {
  /** The dotted path (`credentials.accessKeyId`). */
  path: string;
  /** What it holds, in words: `integer`, `one of rrf, weighted`, `secret reference`. */
  type: string;
  /** Whether the config must have it. */
  required: boolean;
  /** Limits and descriptions, in words. */
  notes: string[];
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a schema describes a `$secret` reference (the service's conversion writes it as a `oneOf` of `$secret` objects). */
function isSecretReference(schema: Schema): boolean {
  const options = schema.oneOf;
  return Array.isArray(options) && options.length > 0 && options.every((option) => isSchema(option) && isSchema(option.properties) && '$secret' in option.properties);
}

function typeOf(schema: Schema, secret: boolean): string {
  if (secret || isSecretReference(schema)) return 'secret reference';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => String(value)).join(', ')}`;
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  if (typeof schema.type === 'string') {
    if (schema.type === 'array' && isSchema(schema.items) && typeof schema.items.type === 'string') return `list of ${schema.items.type}`;
    if (schema.type === 'object' && isSchema(schema.additionalProperties) && typeof schema.additionalProperties.type === 'string') {
      return `map of ${schema.additionalProperties.type}`;
    }
    return schema.type;
  }
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((option) => (isSchema(option) ? typeOf(option, false) : '?')).join(' or ');
  return 'any';
}

function notesOf(schema: Schema): string[] {
  const notes: string[] = [];
  const limit = (key: string, words: (value: number) => string) => {
    const value = schema[key];
    if (typeof value === 'number') notes.push(words(value));
  };
  limit('minimum', (value) => `at least ${value}`);
  limit('exclusiveMinimum', (value) => `more than ${value}`);
  limit('maximum', (value) => `at most ${value}`);
  limit('exclusiveMaximum', (value) => `less than ${value}`);
  limit('minLength', (value) => `at least ${value} character${value === 1 ? '' : 's'}`);
  limit('maxLength', (value) => `at most ${value} characters`);
  if (typeof schema.format === 'string') notes.push(`format ${schema.format}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.description === 'string' && !isSecretReference(schema)) notes.push(schema.description);
  return notes;
}

/**
 * The fields of a config's JSON Schema, nested objects as dotted paths, for the binding form to
 * list. Secret fields (declared, or `$secret` references in the schema) read `secret reference`.
 */
export function configFields(schema: Schema, secretFields: readonly string[] = [], prefix = '', depth = 0): ConfigField[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: ConfigField[] = [];
  for (const [name, value] of Object.entries(properties)) {
    if (!isSchema(value)) continue;
    const path = `${prefix}${name}`;
    const secret = secretFields.includes(path);
    const nested = !secret && value.type === 'object' && isSchema(value.properties) && depth < 3;
    fields.push({ path, type: typeOf(value, secret), required: required.has(name), notes: nested ? [] : notesOf(value) });
    if (nested) fields.push(...configFields(value, secretFields, `${path}.`, depth + 1));
  }
  return fields;
}

/** Whether a config schema takes fields it does not list (a provider whose own package checks the rest). */
export function acceptsOtherFields(schema: Schema): boolean {
  return schema.additionalProperties !== false;
}
