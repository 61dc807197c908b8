import fc from 'fast-check';

/*
 * Values that fight back when they are read: throwing getters, proxies whose traps throw,
 * revoked proxies, objects whose conversions throw, and getters that answer differently on
 * each read. A property test draws a plain recipe (printable, so fast-check can report it)
 * and plants the hostile part at one path of an otherwise valid argument.
 */

const trapNames = [
  'get',
  'set',
  'has',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'setPrototypeOf',
  'defineProperty',
  'deleteProperty',
  'isExtensible',
  'preventExtensions',
  'apply',
  'construct',
] as const;

type TrapName = (typeof trapNames)[number];

/** What a hostile part throws: an error, a primitive, or itself something hostile. */
type ThrownKind = 'error' | 'type-error' | 'string' | 'undefined' | 'proxy' | 'unprintable';

type LeafRecipe =
  | { type: 'proxy'; target: 'object' | 'array' | 'function'; traps: TrapName[] }
  | { type: 'revoked' }
  | { type: 'conversions'; methods: Array<'toString' | 'valueOf' | 'toPrimitive' | 'toJSON'> };

/** One way a value turns hostile. Read on each access, `sequence` cycles: the value it had, a hostile leaf, a throw, another value. */
export type HostileRecipe =
  | { kind: 'replace'; path: Array<string | number>; leaf: LeafRecipe; thrown: ThrownKind }
  | { kind: 'wrap'; path: Array<string | number>; traps: TrapName[]; thrown: ThrownKind }
  | { kind: 'getter'; path: Array<string | number>; thrown: ThrownKind }
  | { kind: 'flip'; path: Array<string | number>; sequence: Array<'original' | 'leaf' | 'throw' | 'other'>; leaf: LeafRecipe; other: unknown; thrown: ThrownKind };

class HostileRead extends Error {}

function thrownValue(kind: ThrownKind): unknown {
  switch (kind) {
    case 'error':
      return new HostileRead('a hostile getter');
    case 'type-error':
      return new TypeError('a hostile trap');
    case 'string':
      return 'a thrown string';
    case 'undefined':
      return undefined;
    case 'proxy':
      return throwingProxy({}, [...trapNames], 'error');
    case 'unprintable':
      return {
        toString() {
          throw new HostileRead('toString');
        },
        get message() {
          throw new HostileRead('message');
        },
      };
  }
}

function throwingProxy(target: object, traps: readonly TrapName[], thrown: ThrownKind): object {
  const handler: ProxyHandler<object> = {};
  for (const trap of traps) {
    (handler as Record<string, unknown>)[trap] = () => {
      throw thrownValue(thrown);
    };
  }
  return new Proxy(target, handler);
}

function buildLeaf(leaf: LeafRecipe, thrown: ThrownKind): unknown {
  switch (leaf.type) {
    case 'proxy': {
      const target = leaf.target === 'array' ? [] : leaf.target === 'function' ? function hostile() {} : {};
      return throwingProxy(target, leaf.traps, thrown);
    }
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }
    case 'conversions': {
      const value: Record<string | symbol, unknown> = {};
      const fail = () => {
        throw thrownValue(thrown);
      };
      for (const method of leaf.methods) value[method === 'toPrimitive' ? Symbol.toPrimitive : method] = fail;
      return value;
    }
  }
}

function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plainCopy(entry)]));
  return value;
}

/** Builds the hostile value a recipe describes from a valid template (which it never changes). */
export function plantHostile(template: unknown, recipe: HostileRecipe): unknown {
  const root = plainCopy(template);
  const { path } = recipe;
  const hostilePart = (original: unknown): unknown => {
    if (recipe.kind === 'replace') return buildLeaf(recipe.leaf, recipe.thrown);
    if (recipe.kind === 'wrap') {
      const target = typeof original === 'object' && original !== null ? original : {};
      return throwingProxy(target, recipe.traps, recipe.thrown);
    }
    return original;
  };
  if (path.length === 0) {
    // A getter needs a parent: at the root, both become a proxy whose every trap throws.
    if (recipe.kind === 'getter' || recipe.kind === 'flip') return throwingProxy({}, [...trapNames], recipe.thrown);
    return hostilePart(root);
  }
  let parent = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const key = path.at(-1)!;
  const original = parent[key];
  if (recipe.kind === 'replace' || recipe.kind === 'wrap') {
    parent[key] = hostilePart(original);
  } else if (recipe.kind === 'getter') {
    Object.defineProperty(parent, key, {
      enumerable: true,
      configurable: true,
      get() {
        throw thrownValue(recipe.thrown);
      },
    });
  } else {
    let reads = 0;
    const { sequence, leaf, other, thrown } = recipe;
    Object.defineProperty(parent, key, {
      enumerable: true,
      configurable: true,
      get() {
        const step = sequence[reads % sequence.length]!;
        reads += 1;
        if (step === 'original') return original;
        if (step === 'leaf') return buildLeaf(leaf, thrown);
        if (step === 'other') return other;
        throw thrownValue(thrown);
      },
    });
  }
  return root;
}

/** Every path of a plain template: the root, each property and each array entry, at any depth. */
export function pathsOf(template: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const found = [path];
  if (Array.isArray(template)) template.forEach((entry, index) => found.push(...pathsOf(entry, [...path, index])));
  else if (typeof template === 'object' && template !== null) {
    for (const [key, entry] of Object.entries(template)) found.push(...pathsOf(entry, [...path, key]));
  }
  return found;
}

const traps: fc.Arbitrary<TrapName[]> = fc.oneof(fc.constant<TrapName[]>([...trapNames]), fc.subarray<TrapName>([...trapNames], { minLength: 1 }));
const thrown = fc.constantFrom<ThrownKind>('error', 'type-error', 'string', 'undefined', 'proxy', 'unprintable');
const leaf: fc.Arbitrary<LeafRecipe> = fc.oneof(
  fc.record({ type: fc.constant('proxy' as const), target: fc.constantFrom('object' as const, 'array' as const, 'function' as const), traps }),
  fc.constant({ type: 'revoked' as const }),
  fc.record({
    type: fc.constant('conversions' as const),
    methods: fc.subarray(['toString', 'valueOf', 'toPrimitive', 'toJSON'] as Array<'toString' | 'valueOf' | 'toPrimitive' | 'toJSON'>, { minLength: 1 }),
  }),
);
// Another value a flipping getter may answer: another company's id, a secret-looking string, anything.
const otherValue = fc.oneof(fc.constantFrom('globex', 'sk-proj-0123456789abcdefABCDEF', ''), fc.anything({ maxDepth: 1 }));

/** Recipes planting one hostile part at a random path of `template`. */
export function hostileRecipes(template: unknown): fc.Arbitrary<HostileRecipe> {
  const path = fc.constantFrom(...pathsOf(template));
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), path, leaf, thrown }),
    fc.record({ kind: fc.constant('wrap' as const), path, traps, thrown }),
    fc.record({ kind: fc.constant('getter' as const), path, thrown }),
    fc.record({
      kind: fc.constant('flip' as const),
      path,
      sequence: fc.array(fc.constantFrom('original' as const, 'leaf' as const, 'throw' as const, 'other' as const), { minLength: 2, maxLength: 5 }),
      leaf,
      other: otherValue,
      thrown,
    }),
  );
}

/** Settles a call that may throw synchronously or reject, and returns what it threw (undefined when it succeeded). */
export async function failureOf(call: () => unknown): Promise<{ failed: false; value: unknown } | { failed: true; error: unknown }> {
  try {
    return { failed: false, value: await call() };
  } catch (error) {
    return { failed: true, error };
  }
}

/** Describes a failure without reading anything hostile about it. */
export function describeFailure(error: unknown): string {
  try {
    if (error instanceof HostileRead) return `HostileRead escaped: ${error.message}`;
    return error instanceof Error ? `${error.name}: ${error.message}` : `a thrown ${typeof error}`;
  } catch {
    return 'an unprintable thrown value';
  }
}
