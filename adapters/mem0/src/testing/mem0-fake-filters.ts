import { isDeepStrictEqual } from 'node:util';
import { createdAtKey } from '../mem0-list-position';

/**
 * The filter grammar of the mem0 platform (v2/v3 filters), as its "Memory Filters" docs
 * page describes it, with its traps: only allow-listed top-level keys (400 otherwise), at
 * least one positively scoped entity id, `*` matching non-null only, explicit `eq` refused
 * on time fields, metadata supporting only bare values, `eq`, `ne` and `contains`, no `nin`,
 * `keywords` failing with 500 on search, and an `OR` beside an `AND` silently dropped.
 * Test-only.
 */

/** A filter the platform refuses, with the status it answers. */
export class Mem0FakeFilterError {
  constructor(
    readonly status: 400 | 500,
    readonly message: string,
  ) {}
}

/** The fields of a stored memory that filters read. */
export interface Mem0FilterableMemory {
  id: string;
  memory: string;
  user_id: string | null;
  agent_id: string | null;
  app_id: string | null;
  run_id: string | null;
  metadata: Record<string, unknown> | null;
  categories: string[];
  created_at: string;
  updated_at: string;
}

const entityFields = ['user_id', 'agent_id', 'app_id', 'run_id'] as const;
const timeFields = ['created_at', 'updated_at', 'timestamp', 'expiration_date'] as const;
const allowedKeys = new Set([
  'AND', 'OR', 'NOT', ...entityFields, ...timeFields, 'text', 'categories', 'metadata', 'keywords_search', 'memory_ids', 'keywords',
]);

type Condition = (memory: Mem0FilterableMemory) => boolean;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function timeKey(value: unknown): string {
  if (typeof value !== 'string') throw new Mem0FakeFilterError(400, 'Time filters take ISO 8601 strings.');
  const key = createdAtKey(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (key === undefined) throw new Mem0FakeFilterError(400, `Invalid datetime: ${value}`);
  return key;
}

function entityCondition(field: (typeof entityFields)[number], value: unknown): Condition {
  if (value === '*') return (memory) => memory[field] !== null;
  if (typeof value === 'string') return (memory) => memory[field] === value;
  if (!isRecord(value)) throw new Mem0FakeFilterError(400, `Invalid value for ${field}.`);
  const checks: Condition[] = Object.entries(value).map(([operator, operand]) => {
    if (operator === 'eq') return (memory) => memory[field] === operand;
    if (operator === 'ne') return (memory) => memory[field] !== operand;
    if (operator === 'in' && Array.isArray(operand)) return (memory) => operand.includes(memory[field]);
    throw new Mem0FakeFilterError(400, `Unsupported operator ${operator} for ${field}.`);
  });
  return (memory) => checks.every((check) => check(memory));
}

function timeCondition(field: string, value: unknown): Condition {
  const read = (memory: Mem0FilterableMemory) => {
    const raw = (memory as unknown as Record<string, unknown>)[field];
    return typeof raw === 'string' ? createdAtKey(raw) : undefined;
  };
  if (!isRecord(value)) {
    const wanted = timeKey(value);
    return (memory) => read(memory) === wanted;
  }
  const checks: Condition[] = Object.entries(value).map(([operator, operand]) => {
    if (operator === 'eq') throw new Mem0FakeFilterError(400, `Explicit eq is not supported for ${field}; pass a bare value.`);
    if (operator === 'in' && Array.isArray(operand)) {
      const keys = operand.map(timeKey);
      return (memory) => keys.includes(read(memory) ?? '');
    }
    const bound = timeKey(operand);
    const compare: Record<string, (key: string) => boolean> = {
      gt: (key) => key > bound,
      gte: (key) => key >= bound,
      lt: (key) => key < bound,
      lte: (key) => key <= bound,
      ne: (key) => key !== bound,
    };
    const test = compare[operator];
    if (test === undefined) throw new Mem0FakeFilterError(400, `Unsupported operator ${operator} for ${field}.`);
    return (memory) => {
      const key = read(memory);
      return key !== undefined && test(key);
    };
  });
  return (memory) => checks.every((check) => check(memory));
}

function metadataCondition(value: unknown): Condition {
  if (!isRecord(value)) throw new Mem0FakeFilterError(400, 'metadata filters take an object.');
  const checks: Condition[] = Object.entries(value).map(([key, expected]) => {
    const read = (memory: Mem0FilterableMemory) => (memory.metadata !== null && Object.hasOwn(memory.metadata, key) ? memory.metadata[key] : undefined);
    if (!isRecord(expected)) return (memory) => read(memory) !== undefined && isDeepStrictEqual(read(memory), expected);
    const operators = Object.entries(expected);
    return (memory) =>
      operators.every(([operator, operand]) => {
        if (operator === 'eq') return isDeepStrictEqual(read(memory), operand);
        if (operator === 'ne') return !isDeepStrictEqual(read(memory), operand);
        if (operator === 'contains') return typeof read(memory) === 'string' && (read(memory) as string).includes(String(operand));
        throw new Mem0FakeFilterError(400, `FilterValidationError: operator ${operator} is not supported on metadata.`);
      });
  });
  return (memory) => checks.every((check) => check(memory));
}

function compile(filters: unknown, context: { onSearch: boolean; positive: { found: boolean }; negated: boolean }): Condition {
  if (!isRecord(filters)) throw new Mem0FakeFilterError(400, 'filters must be an object.');
  const conditions: Condition[] = [];
  for (const [key, value] of Object.entries(filters)) {
    if (!allowedKeys.has(key)) {
      throw new Mem0FakeFilterError(400, `Top-level key must be a logical operator or an allowed field: ${[...allowedKeys].join(', ')}`);
    }
    // The documented trap: an OR beside an AND at the same level is silently dropped.
    if (key === 'OR' && Object.hasOwn(filters, 'AND')) continue;
    if (key === 'AND' || key === 'OR') {
      if (!Array.isArray(value)) throw new Mem0FakeFilterError(400, `${key} takes a list.`);
      const parts = value.map((part) => compile(part, context));
      conditions.push(key === 'AND' ? (memory) => parts.every((part) => part(memory)) : (memory) => parts.some((part) => part(memory)));
    } else if (key === 'NOT') {
      const inner = compile(value, { ...context, negated: true });
      conditions.push((memory) => !inner(memory));
    } else if ((entityFields as readonly string[]).includes(key)) {
      if (!context.negated && value !== '*' && (typeof value === 'string' || (isRecord(value) && ('eq' in value || 'in' in value)))) context.positive.found = true;
      conditions.push(entityCondition(key as (typeof entityFields)[number], value));
    } else if ((timeFields as readonly string[]).includes(key)) {
      conditions.push(timeCondition(key, value));
    } else if (key === 'metadata') {
      conditions.push(metadataCondition(value));
    } else if (key === 'memory_ids') {
      const ids = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.in) ? value.in : undefined;
      if (ids === undefined) throw new Mem0FakeFilterError(400, 'memory_ids takes a list.');
      conditions.push((memory) => ids.includes(memory.id));
    } else if (key === 'keywords') {
      if (context.onSearch) throw new Mem0FakeFilterError(500, 'Internal server error');
      const needle = isRecord(value) ? (value.icontains ?? value.contains) : value;
      const insensitive = isRecord(value) && 'icontains' in value;
      conditions.push((memory) => (insensitive ? memory.memory.toLowerCase().includes(String(needle).toLowerCase()) : memory.memory.includes(String(needle))));
    } else if (key === 'categories') {
      const wanted = isRecord(value) ? value : {};
      conditions.push((memory) =>
        Array.isArray(wanted.in) ? memory.categories.some((category) => (wanted.in as unknown[]).includes(category)) : memory.categories.some((category) => category.toLowerCase().includes(String(wanted.contains ?? '').toLowerCase())),
      );
    } else {
      throw new Mem0FakeFilterError(400, `Filtering on ${key} is not supported by the fake.`);
    }
  }
  return (memory) => conditions.every((condition) => condition(memory));
}

/** Compiles a `filters` object, or throws `Mem0FakeFilterError` as the platform would answer. */
export function compileMem0Filters(filters: unknown, options: { onSearch: boolean }): Condition {
  const positive = { found: false };
  const condition = compile(filters, { onSearch: options.onSearch, positive, negated: false });
  if (!positive.found) throw new Mem0FakeFilterError(400, 'Filters must include at least one positively scoped entity id (user_id, agent_id, app_id or run_id).');
  return condition;
}
