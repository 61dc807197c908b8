import { z } from 'zod';
import { MemoryValidationError } from '../errors/memory-validation-error';
import { parseInput } from '../schemas/parse-with-schema';
import { secretReferenceSchema } from './secret-reference';
import { defOf, isOptionalInput, isZodSchema, wrapperTypes } from './zod-object-paths';

/** How {@link bindingConfigSchema} turns an adapter's settings schema into a binding config schema. */
export interface BindingConfigSchemaOptions {
  /**
   * Dotted paths of the settings that hold secrets (`apiKey`, `credentials.secretAccessKey`).
   * Each becomes {@link secretReferenceSchema}, optional when the setting was.
   */
  secretFields?: readonly string[];
  /**
   * Dotted paths of the settings a binding cannot set: functions and objects the host owns
   * (an injected `fetch`, an SDK client, an embedder). They are removed, so a config naming
   * one is refused.
   */
  omit?: readonly string[];
  /**
   * Settings whose binding shape differs from the adapter's, by dotted path: the schema the
   * binding uses instead (AgentCore's `credentials`, typed `unknown` in the settings, is an
   * object of secret references in a binding). A replacement is optional when the setting was,
   * and `secretFields` may name paths inside it.
   */
  replace?: Readonly<Record<string, z.ZodType>>;
}

type Action = { kind: 'omit' } | { kind: 'secret' } | { kind: 'replace'; schema: z.ZodType };

/** The edits below one object: per key, what happens to it and the edits inside it. */
interface EditNode {
  action?: Action;
  /** Where the action was asked for, such as `options.secretFields.1`, for errors. */
  source?: string;
  children: Map<string, EditNode>;
}

const target = 'binding config schema';
const pathPattern = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/;

const optionsSchema = z.strictObject({
  secretFields: z.array(z.string()).optional(),
  omit: z.array(z.string()).optional(),
  replace: z.record(z.string(), z.custom<z.ZodType>(isZodSchema, 'must be a zod schema')).optional(),
});

function refuse(path: string, message: string): never {
  throw new MemoryValidationError({ target, issues: [{ path, message }] });
}

function collectEdits(options: BindingConfigSchemaOptions): EditNode {
  const root: EditNode = { children: new Map() };
  const add = (path: unknown, action: Action, source: string) => {
    if (typeof path !== 'string' || !pathPattern.test(path)) refuse(source, 'must be a dotted path of setting names');
    let node = root;
    const segments = path.split('.');
    segments.forEach((segment, index) => {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment, child);
      }
      // An omitted or secret setting is whole: nothing can be edited inside it.
      if (index < segments.length - 1 && (child.action?.kind === 'omit' || child.action?.kind === 'secret')) {
        refuse(source, `"${path}" lies inside "${segments.slice(0, index + 1).join('.')}", which ${child.source} already ${child.action.kind === 'omit' ? 'omits' : 'makes a secret'}`);
      }
      node = child;
    });
    if (node.action !== undefined) refuse(source, `"${path}" is already named by ${node.source}`);
    if (action.kind !== 'replace' && node.children.size > 0) refuse(source, `"${path}" has fields edited inside it; name them or the whole setting, not both`);
    node.action = action;
    node.source = source;
  };
  for (const [path, schema] of Object.entries(options.replace ?? {})) {
    add(path, { kind: 'replace', schema }, `options.replace.${path}`);
  }
  (options.omit ?? []).forEach((path, index) => add(path, { kind: 'omit' }, `options.omit.${index}`));
  (options.secretFields ?? []).forEach((path, index) => add(path, { kind: 'secret' }, `options.secretFields.${index}`));
  return root;
}

/** Applies the edits below an object schema (through its wrappers), as a strict object. */
function editThrough(schema: z.ZodType, edits: Map<string, EditNode>, where: string): z.ZodType {
  const def = defOf(schema);
  if (wrapperTypes.has(def.type) && def.innerType !== undefined) {
    return schema.clone({ ...(schema as unknown as { _zod: { def: object } })._zod.def, innerType: editThrough(def.innerType, edits, where) } as never);
  }
  if (def.type !== 'object') {
    const [first] = edits.values();
    return refuse(first === undefined ? 'options' : firstSource(first), `"${where}" is not an object in the settings schema, so nothing inside it can be named`);
  }
  const shape: Record<string, z.ZodType> = { ...(schema as z.ZodObject).shape };
  for (const [key, node] of edits) {
    const path = where === '' ? key : `${where}.${key}`;
    const original = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (original === undefined) {
      return refuse(node.source ?? firstSource(node), `"${path}" names no setting of the settings schema`);
    }
    const action = node.action;
    if (action?.kind === 'omit') {
      delete shape[key];
    } else if (action?.kind === 'secret') {
      // The one shared instance, so hosts can recognise it (JSON Schema, plain-secret checks).
      shape[key] = isOptionalInput(original) ? secretReferenceSchema.optional() : secretReferenceSchema;
    } else {
      let replaced = action === undefined ? original : action.schema;
      if (action !== undefined && isOptionalInput(original) && !isOptionalInput(replaced)) replaced = replaced.optional();
      shape[key] = node.children.size === 0 ? replaced : editThrough(replaced, node.children, path);
    }
  }
  // Rebuilt strict: a key the adapter would refuse, or one the binding cannot set, is refused
  // when the binding is saved rather than when its adapter is first built.
  return z.strictObject(shape);
}

function firstSource(node: EditNode): string {
  if (node.source !== undefined) return node.source;
  for (const child of node.children.values()) return firstSource(child);
  return 'options';
}

/**
 * Derives the config schema of a binding from an adapter's own settings schema (a zod object),
 * so every setting a user may set can be set through a binding, and a setting added to the
 * adapter later is settable without touching the description:
 * - each of `secretFields` becomes a secret reference ({@link secretReferenceSchema});
 * - each of `omit` (functions, SDK clients, other host-owned objects) is removed;
 * - each of `replace` takes the schema given.
 *
 * The result is a strict object, and so is every object an edit reaches into; the settings
 * schema's other fields are kept as they are, checks included. Object-level refinements of an
 * edited object are dropped: they judged settings, and a binding holds references. Throws
 * `MemoryValidationError` naming the option when a path names no setting, reaches inside a
 * setting that is not an object, or is named twice.
 */
export function bindingConfigSchema(settingsSchema: z.ZodObject, options: BindingConfigSchemaOptions = {}): z.ZodObject {
  if (!isZodSchema(settingsSchema) || defOf(settingsSchema).type !== 'object') {
    refuse('settingsSchema', 'must be a zod object schema: the adapter\'s settings schema');
  }
  const edits = collectEdits(parseInput(optionsSchema, options, target, 'options'));
  return editThrough(settingsSchema, edits.children, '') as z.ZodObject;
}
