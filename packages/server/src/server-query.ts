import { z } from 'zod';

type Kind = 'number' | 'boolean' | 'array' | 'string';

const kindsCache = new WeakMap<z.ZodObject, Map<string, Kind>>();

/** The JSON type of each field of a query schema, read once from its JSON Schema. */
function kindsOf(schema: z.ZodObject): Map<string, Kind> {
  let kinds = kindsCache.get(schema);
  if (kinds !== undefined) return kinds;
  kinds = new Map();
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> };
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    const type = property.type;
    kinds.set(key, type === 'integer' || type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : type === 'array' ? 'array' : 'string');
  }
  kindsCache.set(schema, kinds);
  return kinds;
}

/**
 * Turns query strings into the request object the service expects: numbers where the schema
 * has numbers, every value of a repeated key where it has an array. A value that is not a
 * number stays a string, so the service's own check refuses it and names the field; keys the
 * schema does not know are passed on for the same reason (the service's schemas are strict).
 */
export function queryRequest(schema: z.ZodObject | undefined, all: Record<string, string[]>): Record<string, unknown> {
  const kinds = schema === undefined ? new Map<string, Kind>() : kindsOf(schema);
  const request: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(all)) {
    const kind = kinds.get(key) ?? 'string';
    if (kind === 'array') {
      request[key] = values;
      continue;
    }
    const value = values.length === 1 ? values[0] : values;
    if (kind === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) request[key] = Number(value);
    else if (kind === 'boolean' && (value === 'true' || value === 'false')) request[key] = value === 'true';
    else request[key] = value;
  }
  return request;
}
