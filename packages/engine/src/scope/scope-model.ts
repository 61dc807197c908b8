import { MemoryConfigurationError, MemoryValidationError, type MemoryValidationIssue } from '@memplane/core';
import { z } from 'zod';
import { canonicalHash } from '../support/canonical-hash';
import type { ScopeValues } from '../store/engine-store-rows';

/** A field name that is safe as a SQL column name on every backend. */
const fieldNamePattern = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;

/**
 * The scope schema of an engine (§5): its fields in order, the boundary fields that cross-scope
 * reads must pin, and the hash recorded in `service_meta`.
 */
export interface ScopeModel {
  /** Field names in schema order: the column order of every scope prefix. */
  readonly fields: readonly string[];
  /** Fields a scope selector may never leave as ANY (§7.2). */
  readonly boundaryFields: readonly string[];
  /** SHA-256 of the fields, their JSON Schema and the boundary fields. */
  readonly hash: string;
  /** Checks a full scope (every field, no other key) for a write; throws `MemoryValidationError`. */
  parseFull(input: unknown, target: string): ScopeValues;
  /** Checks one value of a field; returns the issue message or undefined when it is valid. */
  checkValue(field: string, value: unknown): string | undefined;
}

/** Settings of {@link createScopeModel}. */
export interface ScopeModelSettings {
  /** The scope schema: a zod object whose every field is a string. */
  readonly schema: z.ZodObject;
  /** Fields that bound every cross-scope read, such as the tenant id. At least one is required. */
  readonly boundaryFields: readonly string[];
}

/**
 * Builds the scope model from a zod object. Refuses (with `MemoryConfigurationError`) a schema
 * whose field names are not column-safe or whose fields do not take strings, and boundary
 * fields that are missing or not in the schema: without them cross-scope retrieval could not be
 * bounded safely (§7.2 "recommended finalization").
 */
export function createScopeModel(settings: ScopeModelSettings): ScopeModel {
  const schema = settings.schema;
  if (typeof schema !== 'object' || schema === null || typeof (schema as { shape?: unknown }).shape !== 'object') {
    throw new MemoryConfigurationError({ message: 'Invalid scope schema: give a zod object (z.object({ ... })).' });
  }
  const shape = schema.shape as Record<string, z.ZodType>;
  const fields = Object.keys(shape);
  const refuse = (message: string) => new MemoryConfigurationError({ message: `Invalid scope schema: ${message}` });
  if (fields.length === 0) throw refuse('it has no fields.');
  let jsonSchema: unknown;
  try {
    jsonSchema = z.toJSONSchema(schema);
  } catch (cause) {
    throw new MemoryConfigurationError({ message: 'Invalid scope schema: it cannot be described as JSON Schema.', cause });
  }
  const properties = (jsonSchema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  for (const field of fields) {
    if (!fieldNamePattern.test(field)) throw refuse(`field "${field}" must be a letter then letters, digits or _ (at most 63).`);
    if (properties[field]?.type !== 'string') throw refuse(`field "${field}" must be a string field.`);
  }
  if (settings.boundaryFields.length === 0) throw refuse('declare at least one boundary field.');
  for (const field of settings.boundaryFields) {
    if (!fields.includes(field)) throw refuse(`boundary field "${field}" is not a field of the schema.`);
  }
  const boundaryFields = [...new Set(settings.boundaryFields)];
  const hash = canonicalHash({ fields, jsonSchema, boundaryFields });

  const checkValue = (field: string, value: unknown): string | undefined => {
    const fieldSchema = shape[field];
    if (fieldSchema === undefined) return 'is not a scope field';
    if (typeof value !== 'string') return 'must be a string';
    const result = fieldSchema.safeParse(value);
    return result.success ? undefined : (result.error.issues[0]?.message ?? 'is not valid');
  };

  return {
    fields,
    boundaryFields,
    hash,
    checkValue,
    parseFull(input, target) {
      const issues: MemoryValidationIssue[] = [];
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw new MemoryValidationError({ target, issues: [{ path: 'scope', message: 'must be an object' }] });
      }
      const record = input as Record<string, unknown>;
      for (const key of Object.keys(record)) if (!fields.includes(key)) issues.push({ path: `scope.${key}`, message: 'is not a scope field' });
      const values: Record<string, string> = {};
      for (const field of fields) {
        if (record[field] === undefined) {
          issues.push({ path: `scope.${field}`, message: 'is required: writes need a full scope' });
          continue;
        }
        const problem = checkValue(field, record[field]);
        if (problem === undefined) values[field] = record[field] as string;
        else issues.push({ path: `scope.${field}`, message: problem });
      }
      if (issues.length > 0) throw new MemoryValidationError({ target, issues });
      return values;
    },
  };
}
