import { secretReferenceSchema, type MemoryProviderDefinition, type MemoryValidationIssue } from '@memplane/core';
import { z } from 'zod';
import { plainSecretIssues } from '../bindings/secret-reference';
import type { MemoryProviderConfigDescription } from './memory-provider-description';

/** What a provider's config looks like: its JSON Schema, an example and its secret fields. */
export type MemoryProviderConfigHelp = Pick<MemoryProviderConfigDescription, 'configSchema' | 'configExample' | 'secretFields'>;

const jsonSchemaDialect = 'https://json-schema.org/draft/2020-12/schema';

/** A `$secret` reference as JSON Schema: an environment variable's name or a resolver key, never a value. */
function secretReferenceJsonSchema(): Record<string, unknown> {
  const reference = (name: 'env' | 'key') => ({
    type: 'object',
    properties: {
      $secret: {
        type: 'object',
        properties: { [name]: { type: 'string', minLength: 1, maxLength: 256 } },
        required: [name],
        additionalProperties: false,
      },
    },
    required: ['$secret'],
    additionalProperties: false,
  });
  return {
    description: 'A secret reference, never the value: { "$secret": { "env": "NAME" } } names an environment variable, { "$secret": { "key": "KEY" } } a key of the host\'s secret resolver.',
    oneOf: [reference('env'), reference('key')],
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets `value` at a dotted path of an object schema's `properties`, making the objects on the way. */
function setSchemaProperty(schema: Record<string, unknown>, path: string[], value: Record<string, unknown>): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const properties = isObject(schema.properties) ? schema.properties : {};
  schema.properties = properties;
  if (rest.length === 0) {
    properties[head] = value;
    return;
  }
  const inner = isObject(properties[head]) ? (properties[head] as Record<string, unknown>) : { type: 'object' };
  properties[head] = inner;
  setSchemaProperty(inner, rest, value);
}

/** Sets `value` at a dotted path of a plain object, making the objects on the way. */
function setExampleValue(example: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    example[head] = value;
    return;
  }
  const inner = isObject(example[head]) ? (example[head] as Record<string, unknown>) : {};
  example[head] = inner;
  setExampleValue(inner, rest, value);
}

/** `acme-kb` and `credentials.accessKeyId` → `ACME_KB_CREDENTIALS_ACCESS_KEY_ID`. */
function environmentNameOf(providerId: string, field: string): string {
  return `${providerId}_${field}`
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** The config's JSON Schema: converted from `configSchema`, or an open object naming the secret fields. */
function configJsonSchema(definition: MemoryProviderDefinition, secretFields: readonly string[]): Record<string, unknown> {
  let schema: Record<string, unknown> | undefined;
  if (definition.configSchema !== undefined) {
    try {
      schema = z.toJSONSchema(definition.configSchema, {
        io: 'input',
        // A check zod cannot express (a plugin's custom type) describes any value; the service still checks it.
        unrepresentable: 'any',
        override: (context) => {
          if (context.zodSchema === secretReferenceSchema) Object.assign(context.jsonSchema, secretReferenceJsonSchema());
        },
      }) as Record<string, unknown>;
    } catch {
      schema = undefined;
    }
  }
  schema ??= {
    $schema: jsonSchemaDialect,
    type: 'object',
    description:
      definition.configSchema === undefined
        ? "The provider describes no config schema: its adapter checks this config when a binding is built; the service checks the secret fields listed here, which must be references."
        : 'This config cannot be described as JSON Schema; the service checks it when a binding is created or changed.',
    additionalProperties: true,
  };
  // Declared secret fields are references whatever the schema says of them.
  for (const field of secretFields) setSchemaProperty(schema, field.split('.'), secretReferenceJsonSchema());
  return schema;
}

const described = new WeakMap<MemoryProviderDefinition, MemoryProviderConfigHelp>();

/**
 * The JSON Schema, example and secret fields of a provider's config (converted once per
 * definition, a fresh copy each call). Without a `configExample`, the example is the secret fields
 * as references to environment variables named after the provider and field.
 */
export function describeProviderConfig(definition: MemoryProviderDefinition): MemoryProviderConfigHelp {
  let help = described.get(definition);
  if (help === undefined) {
    const secretFields = [...(definition.secretFields ?? [])];
    let configExample: Record<string, unknown>;
    if (definition.configExample === undefined) {
      configExample = {};
      for (const field of secretFields) setExampleValue(configExample, field.split('.'), { $secret: { env: environmentNameOf(definition.providerId, field) } });
    } else {
      configExample = structuredClone(definition.configExample);
    }
    help = { configSchema: configJsonSchema(definition, secretFields), configExample, secretFields };
    described.set(definition, help);
  }
  return structuredClone(help);
}

/**
 * What the service's credential scan finds in a definition's `configExample`, as issues under
 * `configExample` (core's `defineMemoryProvider` checked the declared secret fields and the
 * schema; this also catches a credential-shaped value under any key): not a JSON object, a
 * plain secret in it (named, never repeated), or a value its `configSchema` refuses.
 */
export function configExampleIssues(definition: MemoryProviderDefinition): MemoryValidationIssue[] {
  const example: unknown = definition.configExample;
  if (example === undefined) return [];
  const path = (field: string) => (field === '' ? 'configExample' : `configExample.${field}`);
  if (!isObject(example)) return [{ path: path(''), message: 'must be a JSON object' }];
  let copy: Record<string, unknown>;
  try {
    copy = JSON.parse(JSON.stringify(example)) as Record<string, unknown>;
  } catch {
    return [{ path: path(''), message: 'must be JSON' }];
  }
  const secrets = plainSecretIssues(copy, definition.secretFields ?? []).map((issue) => ({ ...issue, path: path(issue.path.replace(/^config\.?/, '')) }));
  if (secrets.length > 0) return secrets;
  const parsed = definition.configSchema?.safeParse(copy);
  if (parsed === undefined || parsed.success) return [];
  return parsed.error.issues.map((issue) => ({ path: path(issue.path.map(String).join('.')), message: issue.message }));
}
