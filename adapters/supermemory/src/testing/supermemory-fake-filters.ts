/**
 * Supermemory's metadata filter grammar, as the fake evaluates it (test-only, not part of the
 * build). Source: the docs page "Organizing & Filtering Memories" (concepts/filtering) and the
 * SDK's `filters` types: `{ AND: [...] }` or `{ OR: [...] }`, nested at most 8 levels, at most
 * 200 conditions; a leaf is `{ key, value: string, filterType?, numericOperator?, negate?, ignoreCase? }`.
 * A plain leaf (`filterType` absent or `metadata`) is exact equality of the stored value written
 * as a string.
 */

/** A filter leaf. */
export interface FakeFilterLeaf {
  key: string;
  value: string;
  filterType?: 'metadata' | 'numeric' | 'array_contains' | 'string_contains';
  numericOperator?: '>' | '<' | '>=' | '<=' | '=';
  negate?: boolean | 'true' | 'false';
  ignoreCase?: boolean | 'true' | 'false';
}

/** A filter expression. */
export type FakeFilter = { AND: FakeFilterNode[] } | { OR: FakeFilterNode[] };
type FakeFilterNode = FakeFilter | FakeFilterLeaf;

const maximumConditions = 200;
const maximumDepth = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns why a filter is invalid, or undefined when Supermemory would accept it. */
export function findFilterProblem(filter: unknown): string | undefined {
  let conditions = 0;
  const visit = (node: unknown, depth: number): string | undefined => {
    if (!isRecord(node)) return 'filters must be objects';
    if (depth > maximumDepth) return `filters nest at most ${maximumDepth} levels`;
    const children = node.AND ?? node.OR;
    if (children !== undefined) {
      if (!Array.isArray(children)) return 'AND and OR take arrays';
      for (const child of children) {
        const problem = visit(child, depth + 1);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    conditions += 1;
    if (conditions > maximumConditions) return `at most ${maximumConditions} conditions`;
    if (typeof node.key !== 'string' || node.key === '') return 'a condition needs a key';
    if (typeof node.value !== 'string') return 'condition values are strings';
    return undefined;
  };
  if (!isRecord(filter) || (filter.AND === undefined && filter.OR === undefined)) return 'filters must be wrapped in AND or OR';
  return visit(filter, 1);
}

const truthy = (flag: boolean | 'true' | 'false' | undefined) => flag === true || flag === 'true';

function matchesLeaf(leaf: FakeFilterLeaf, metadata: Record<string, unknown>): boolean {
  const stored = metadata[leaf.key];
  const ignoreCase = truthy(leaf.ignoreCase);
  const fold = (text: string) => (ignoreCase ? text.toLowerCase() : text);
  let matched: boolean;
  switch (leaf.filterType ?? 'metadata') {
    case 'numeric': {
      const left = Number(stored);
      const right = Number(leaf.value);
      const operator = leaf.numericOperator ?? '=';
      matched =
        typeof stored === 'number' &&
        (operator === '>' ? left > right : operator === '<' ? left < right : operator === '>=' ? left >= right : operator === '<=' ? left <= right : left === right);
      break;
    }
    case 'array_contains':
      matched = Array.isArray(stored) && stored.some((item) => fold(String(item)) === fold(leaf.value));
      break;
    case 'string_contains':
      matched = typeof stored === 'string' && fold(stored).includes(fold(leaf.value));
      break;
    default:
      matched = stored !== undefined && stored !== null && !Array.isArray(stored) && fold(String(stored)) === fold(leaf.value);
  }
  return truthy(leaf.negate) ? !matched : matched;
}

/** Whether flat metadata satisfies a (valid) filter. */
export function matchesFilter(filter: FakeFilter | undefined, metadata: Record<string, unknown>): boolean {
  if (filter === undefined) return true;
  const evaluate = (node: FakeFilterNode): boolean => {
    if ('AND' in node) return node.AND.every(evaluate);
    if ('OR' in node) return node.OR.some(evaluate);
    return matchesLeaf(node, metadata);
  };
  return evaluate(filter);
}
