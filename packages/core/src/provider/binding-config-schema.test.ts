import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryValidationError } from '../errors/memory-validation-error';
import { bindingConfigSchema } from './binding-config-schema';
import { secretReferenceSchema } from './secret-reference';

const reference = { $secret: { env: 'A_SECRET' } };

function fieldOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error.field;
    throw error;
  }
  return undefined;
}

describe('bindingConfigSchema', () => {
  const settings = z.object({
    apiKey: z.string().min(1).optional(),
    baseURL: z.url().optional(),
    fetch: z.custom<typeof fetch>((value) => typeof value === 'function').optional(),
    client: z.custom<object>((value) => typeof value === 'object').optional(),
    credentials: z.unknown().optional(),
    nested: z.strictObject({ token: z.string(), label: z.string().optional() }).optional().nullable(),
    memoryId: z.string(),
  });
  const config = bindingConfigSchema(settings, {
    secretFields: ['apiKey', 'nested.token', 'credentials.secretAccessKey'],
    omit: ['fetch', 'client'],
    replace: { credentials: z.strictObject({ accessKeyId: z.string(), secretAccessKey: z.string() }) },
  });

  it('makes secret fields references (optional when the setting was), nested ones too, and uses the shared instance', () => {
    expect(config.safeParse({ memoryId: 'm', apiKey: reference }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm' }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm', apiKey: 'sk-plain' }).success).toBe(false);
    expect(config.safeParse({ memoryId: 'm', nested: { token: reference, label: 'x' } }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm', nested: null }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm', nested: { token: 'plain' } }).success).toBe(false);
    expect(config.safeParse({ memoryId: 'm', nested: {} }).success).toBe(false);
    const apiKey = config.shape.apiKey as z.ZodOptional<z.ZodType>;
    expect(apiKey.unwrap()).toBe(secretReferenceSchema);
  });

  it('removes omitted fields, so a config naming one is refused, and keeps the others as they were', () => {
    expect(Object.keys(config.shape).sort()).toEqual(['apiKey', 'baseURL', 'credentials', 'memoryId', 'nested']);
    expect(config.safeParse({ memoryId: 'm', fetch: 'x' }).success).toBe(false);
    expect(config.safeParse({ memoryId: 'm', baseURL: 'not a url' }).success).toBe(false);
    expect(config.safeParse({ baseURL: 'https://a.example' }).success).toBe(false);
    expect(config.shape.baseURL).toBe(settings.shape.baseURL);
  });

  it('replaces a setting, keeps it optional when it was, and makes secrets inside the replacement references', () => {
    expect(config.safeParse({ memoryId: 'm', credentials: { accessKeyId: 'AKIA', secretAccessKey: reference } }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm', credentials: { accessKeyId: reference, secretAccessKey: reference } }).success).toBe(false);
    expect(config.safeParse({ memoryId: 'm', credentials: { accessKeyId: 'AKIA', secretAccessKey: 'plain' } }).success).toBe(false);
    expect(config.safeParse({ memoryId: 'm', credentials: { accessKeyId: 'AKIA', secretAccessKey: reference, extra: 1 } }).success).toBe(false);
  });

  it('is strict even when the settings schema is not', () => {
    expect(settings.safeParse({ memoryId: 'm', unknown: 1 }).success).toBe(true);
    expect(config.safeParse({ memoryId: 'm', unknown: 1 }).success).toBe(false);
  });

  it('names the option that names no setting, reaches inside a non-object, or names a field twice', () => {
    expect(fieldOf(() => bindingConfigSchema(settings, { secretFields: ['apiKey', 'nope'] }))).toBe('options.secretFields.1');
    expect(fieldOf(() => bindingConfigSchema(settings, { omit: ['memoryId.inner'] }))).toBe('options.omit.0');
    expect(fieldOf(() => bindingConfigSchema(settings, { omit: ['apiKey'], secretFields: ['apiKey'] }))).toBe('options.secretFields.0');
    expect(fieldOf(() => bindingConfigSchema(settings, { secretFields: ['nested', 'nested.token'] }))).toBe('options.secretFields.1');
    expect(fieldOf(() => bindingConfigSchema(settings, { secretFields: ['a..b'] }))).toBe('options.secretFields.0');
    expect(fieldOf(() => bindingConfigSchema(settings, { omit: ['__proto__'] }))).toBe('options.omit.0');
    expect(fieldOf(() => bindingConfigSchema(z.string() as never))).toBe('settingsSchema');
    expect(fieldOf(() => bindingConfigSchema(settings, { replace: { apiKey: 'text' as never } }))).toBe('options.replace.apiKey');
  });
});

// A settings schema as plain data, so fast-check can print it: leaves of four kinds and nested
// objects, each optional or not.
type Spec = { kind: 'string' | 'number' | 'boolean' | 'function'; optional: boolean } | { kind: 'object'; optional: boolean; fields: Record<string, Spec> };
type Role = 'keep' | 'secret' | 'omit';

const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/), { minLength: 1, maxLength: 5 });
const specArbitrary = fc.letrec<{ spec: Spec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constantFrom('string', 'number', 'boolean', 'function' as const), optional: fc.boolean() }),
    fc
      .record({ optional: fc.boolean(), keys: names, values: fc.array(tie('spec'), { minLength: 5, maxLength: 5 }) })
      .map(({ optional, keys, values }) => ({
        kind: 'object' as const,
        optional,
        fields: Object.fromEntries(keys.map((key, index) => [key, values[index]!])),
      })),
  ),
})).spec;
const rootArbitrary = fc.record({ keys: names, values: fc.array(specArbitrary, { minLength: 5, maxLength: 5 }) }).map(({ keys, values }) => ({
  kind: 'object' as const,
  optional: false,
  fields: Object.fromEntries(keys.map((key, index) => [key, values[index]!])),
}));

function schemaOf(spec: Spec): z.ZodType {
  const base =
    spec.kind === 'object'
      ? z.strictObject(Object.fromEntries(Object.entries(spec.fields).map(([key, field]) => [key, schemaOf(field)])))
      : spec.kind === 'function'
        ? z.custom<() => void>((value) => typeof value === 'function')
        : spec.kind === 'string'
          ? z.string()
          : spec.kind === 'number'
            ? z.number()
            : z.boolean();
  return spec.optional ? base.optional() : base;
}

/** Every path of the spec with its spec, outer objects before what they hold. */
function pathsOf(spec: Spec, prefix = ''): Array<[string, Spec]> {
  if (spec.kind !== 'object') return [];
  return Object.entries(spec.fields).flatMap(([key, field]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [[path, field] as [string, Spec], ...pathsOf(field, path)];
  });
}

/** A config that should pass: every required field set, secrets as references, omitted fields left out. */
function validConfig(spec: Spec, roles: Map<string, Role>, prefix = ''): unknown {
  const role = roles.get(prefix);
  if (role === 'secret') return reference;
  if (spec.kind === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(spec.fields)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (roles.get(path) === 'omit') continue;
      result[key] = validConfig(field, roles, path);
    }
    return result;
  }
  return spec.kind === 'string' ? 'text' : spec.kind === 'number' ? 1 : spec.kind === 'boolean' ? true : undefined;
}

/** Assigns roles top-down: nothing is named inside an omitted or secret field. */
function rolesOf(spec: Spec, picks: Role[]): Map<string, Role> {
  const roles = new Map<string, Role>();
  pathsOf(spec).forEach(([path, field], index) => {
    const insideWhole = [...roles].some(([outer, role]) => role !== 'keep' && path.startsWith(`${outer}.`));
    // A function can be neither kept (JSON has none) nor a plain value; required ones must go.
    const pick = picks[index % picks.length] ?? 'keep';
    const role: Role = field.kind === 'function' && pick === 'keep' ? 'omit' : pick;
    if (!insideWhole) roles.set(path, role);
  });
  return roles;
}

function setAt(value: unknown, path: string, leaf: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const segments = path.split('.');
  let node = copy;
  for (const segment of segments.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments.at(-1)!] = leaf;
  return copy;
}

describe('bindingConfigSchema over any settings schema', () => {
  it('accepts the settings with references for secrets and without omitted fields, refuses a plain secret, an omitted field and an unknown key', () => {
    fc.assert(
      fc.property(rootArbitrary, fc.array(fc.constantFrom<Role>('keep', 'secret', 'omit'), { minLength: 1, maxLength: 8 }), (spec, picks) => {
        const roles = rolesOf(spec, picks);
        const named = (role: Role) => [...roles].filter(([, value]) => value === role).map(([path]) => path);
        const config = bindingConfigSchema(schemaOf(spec) as z.ZodObject, { secretFields: named('secret'), omit: named('omit') });
        const valid = validConfig(spec, roles);
        expect(config.safeParse(valid).success).toBe(true);
        for (const path of named('secret')) {
          expect(config.safeParse(setAt(valid, path, 'plain-secret-value')).success, path).toBe(false);
        }
        for (const path of named('omit')) {
          const inside = [...roles].some(([outer, role]) => role !== 'keep' && path.startsWith(`${outer}.`));
          if (!inside) expect(config.safeParse(setAt(valid, path, 'set anyway')).success, path).toBe(false);
        }
        expect(config.safeParse({ ...(valid as object), unknownSetting: 1 }).success).toBe(false);
        const kept = Object.keys(spec.fields).filter((key) => roles.get(key) !== 'omit');
        expect(Object.keys(config.shape).sort()).toEqual(kept.sort());
      }),
      { numRuns: 300 },
    );
  });
});
