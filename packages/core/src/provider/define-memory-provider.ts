import { z } from 'zod';
import { MemoryValidationError, type MemoryValidationIssue } from '../errors/memory-validation-error';
import { isJsonObject } from '../schemas/json-value-schema';
import { parseInput } from '../schemas/parse-with-schema';
import { memoryAdapterCapabilitiesSchema } from '../schemas/result-schemas';
import type { MemoryProviderDefinition } from './memory-provider-definition';
import { isSecretReference } from './secret-reference';
import { defOf, fieldAt, isZodSchema } from './zod-object-paths';

const target = 'provider definition';

/** A provider id: what bindings name, also a folder name under the host's data directory. */
export const providerIdPattern = /^[a-z][a-z0-9-]{0,63}$/;

const functionSchema = z.custom<(...values: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');
const fieldNameSchema = z.string().regex(/^[A-Za-z_$][\w$-]*$/, 'must be the name of a top-level config field');
const dottedPathSchema = z.string().regex(/^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/, 'must be a dotted config path');
const uniqueList = <Item extends z.ZodType>(item: Item) =>
  z.array(item).refine((values) => new Set(values).size === values.length, 'must not name a field twice');

/**
 * An official endpoint: an https URL without user, password, query or fragment, whose host may
 * use `*` for exactly one whole DNS label (`https://bedrock-agentcore.*.amazonaws.com`).
 */
const officialEndpointSchema = z.string().superRefine((entry, context) => {
  let url: URL;
  try {
    url = new URL(entry.replace(/\*/g, 'wildcard-label'));
  } catch {
    context.addIssue({ code: 'custom', message: 'must be a URL' });
    return;
  }
  const wildcards = url.hostname.split('.').filter((label) => label === 'wildcard-label').length;
  const problem =
    url.protocol !== 'https:'
      ? 'must be an https URL: a binding\'s requests carry its credentials'
      : url.username !== '' || url.password !== ''
        ? 'must not carry a user or password'
        : url.search !== '' || url.hash !== '' || entry.includes('?') || entry.includes('#')
          ? 'must not have a query or fragment'
          : wildcards !== (entry.match(/\*/g) ?? []).length
            ? 'may use * only as a whole label of the host'
            : undefined;
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

const jsonObjectSchema = z.custom<Record<string, unknown>>(isJsonObject, 'must be a JSON object');

const definitionSchema = z.strictObject({
  providerId: z.string().regex(providerIdPattern, 'must be 1 to 64 characters of a-z, 0-9 and -, starting with a letter'),
  packageName: z
    .string()
    .max(214)
    .regex(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/, 'must be an npm package name')
    .optional(),
  description: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters: one line for operators')
    .regex(/^[^\r\n]*$/, 'must be one line'),
  configSchema: z.custom<z.ZodType>(isZodSchema, 'must be a zod schema').optional(),
  secretFields: uniqueList(dottedPathSchema).optional(),
  requiredFields: uniqueList(fieldNameSchema).optional(),
  destination: z
    .strictObject({
      field: fieldNameSchema,
      officialEndpoints: z.array(officialEndpointSchema),
      defaultEndpoint: functionSchema,
      passDefault: z.boolean(),
    })
    .optional(),
  localRootField: fieldNameSchema.optional(),
  configExample: jsonObjectSchema.optional(),
  capabilities: memoryAdapterCapabilitiesSchema.optional(),
  checkConfig: functionSchema.optional(),
  create: functionSchema,
});

type ParsedDefinition = z.output<typeof definitionSchema>;

const probeReference = { $secret: { env: 'MEMPLANE_DEFINITION_PROBE' } };

/** A schema's verdict on a value; a schema that throws (an async check) gives none. */
function verdict(schema: z.ZodType, value: unknown): z.ZodSafeParseResult<unknown> | undefined {
  try {
    return schema.safeParse(value);
  } catch {
    return undefined;
  }
}

/** What the definition's own fields say that its config schema contradicts. */
function consistencyIssues(definition: ParsedDefinition): MemoryValidationIssue[] {
  const issues: MemoryValidationIssue[] = [];
  const schema = definition.configSchema;
  const secretFields = definition.secretFields ?? [];
  if (schema !== undefined && defOf(schema).type === 'object') {
    const named: Array<[string, string | undefined]> = [
      ...(definition.requiredFields ?? []).map((field, index): [string, string] => [`requiredFields.${index}`, field]),
      ['destination.field', definition.destination?.field],
      ['localRootField', definition.localRootField],
    ];
    for (const [path, field] of named) {
      if (field !== undefined && fieldAt(schema, field) === undefined) issues.push({ path, message: `"${field}" is not a field of configSchema` });
    }
    secretFields.forEach((field, index) => {
      const leaf = fieldAt(schema, field);
      if (leaf === undefined) issues.push({ path: `secretFields.${index}`, message: `"${field}" is not a field of configSchema` });
      else if (verdict(leaf, probeReference)?.success !== true || verdict(leaf, 'plain-value')?.success !== false) {
        issues.push({ path: `secretFields.${index}`, message: `configSchema must take "${field}" as a secret reference (secretReferenceSchema), never a plain value` });
      }
    });
  }
  const example = definition.configExample;
  if (example !== undefined) {
    secretFields.forEach((field) => {
      let value: unknown = example;
      for (const segment of field.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
      if (value !== undefined && !isSecretReference(value)) {
        issues.push({ path: `configExample.${field}`, message: 'must be a secret reference ({ $secret: { env: NAME } }), never a value' });
      }
    });
    const parsed = issues.length > 0 || schema === undefined ? undefined : verdict(schema, example);
    if (issues.length === 0 && schema !== undefined && parsed === undefined) {
      issues.push({ path: 'configExample', message: 'could not be checked: configSchema threw (an asynchronous check?)' });
    } else if (parsed !== undefined && !parsed.success) {
      for (const issue of parsed.error.issues) {
        // An unknown key is reported on its parent object; name the key itself.
        const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
        issues.push({ path: ['configExample', ...issue.path.map(String), ...keys].join('.'), message: issue.message });
      }
    }
  }
  return issues;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * Checks a provider description and returns it frozen: what an adapter package exports from
 * its `./provider` subpath, and what a host checks again when it loads one by package name.
 * Checked: the shape (an id of `a-z0-9-` starting with a letter, a one-line description, the
 * functions are functions, the official endpoints https URLs, the capabilities a valid
 * manifest), and that the fields it names agree with its config schema: every required,
 * destination and local root field exists, every secret field takes a secret reference and
 * refuses a plain value, and the config example passes the schema with no plain secret in it.
 * Throws `MemoryValidationError` naming the field (`destination.officialEndpoints.0`).
 *
 * The result is a frozen copy: its lists, destination, example and capabilities are frozen
 * too; the functions and the config schema are the ones given.
 */
export function defineMemoryProvider(definition: MemoryProviderDefinition): Readonly<MemoryProviderDefinition> {
  const parsed = parseInput(definitionSchema, definition, target);
  const issues = consistencyIssues(parsed);
  if (issues.length > 0) throw new MemoryValidationError({ target, issues });
  const { destination, secretFields, requiredFields, configExample, capabilities, ...rest } = parsed;
  const frozen: MemoryProviderDefinition = {
    ...rest,
    ...(secretFields === undefined ? {} : { secretFields: Object.freeze([...secretFields]) }),
    ...(requiredFields === undefined ? {} : { requiredFields: Object.freeze([...requiredFields]) }),
    ...(destination === undefined
      ? {}
      : { destination: Object.freeze({ ...destination, officialEndpoints: Object.freeze([...destination.officialEndpoints]) }) }),
    ...(configExample === undefined ? {} : { configExample: deepFreeze(structuredClone(configExample)) }),
    ...(capabilities === undefined ? {} : { capabilities: deepFreeze(structuredClone(capabilities)) }),
  } as MemoryProviderDefinition;
  return Object.freeze(frozen);
}
