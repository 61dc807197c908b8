import type { MemoryListRequest, MemoryQueryRequest } from '../memory-adapter/v1/memory-adapter-v1-requests';
import { memoryScopeFields, type MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { copyScopeFields } from './copy-scope-fields';
import { detachJsonValue, isJsonObject } from './json-value-schema';
import { maximumListLimit, maximumTopK, memoryQueryIntentSchema } from './request-schemas';
import { identifierPattern } from './scope-schema';
import { isWellFormedText } from './well-formed-text';

/*
 * Every query and list passes request validation, and the zod schemas cost tens of
 * microseconds per call there (strict objects, regexes, refinements), more than a hosted
 * adapter's whole mapping of a page. These checks accept exactly what the schemas in
 * `request-schemas.ts` and `scope-schema.ts` accept and copy as zod does; when one says no,
 * the caller runs zod, which produces the error naming the field. A test holds each pair
 * to agreement on valid and broken inputs. Each field is read once, so a getter cannot show the
 * check one value and the copy another, and a value that throws while it is read is left to
 * zod (through `parseInput`) to refuse.
 */

const queryIntents: ReadonlySet<unknown> = new Set(memoryQueryIntentSchema.options);
const scopeKeys: ReadonlySet<string> = new Set(memoryScopeFields);
const queryKeys: ReadonlySet<string> = new Set(['bindingKey', 'scope', 'query', 'topK', 'intent', 'metadataFilter']);
const listKeys: ReadonlySet<string> = new Set(['bindingKey', 'scope', 'cursor', 'limit', 'metadataFilter']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdentifier(value: unknown): value is string {
  return typeof value === 'string' && identifierPattern.test(value);
}

function optionalIdentifier(value: unknown): boolean {
  return value === undefined || isIdentifier(value);
}

/** Whether every own key is one of `known`: strict objects refuse any other, even when undefined. */
function hasOnlyKeys(value: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const key in value) if (!known.has(key)) return false;
  return true;
}

function isCount(value: unknown, maximum: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= maximum;
}

/** A checked copy of a request scope (`memoryScopeSchema`), or undefined when zod must say why not. */
export function copyValidScope(value: unknown): MemoryScope | undefined {
  try {
    if (!isRecord(value)) return undefined;
    const companyId = value.companyId;
    if (!isIdentifier(companyId) || !hasOnlyKeys(value, scopeKeys)) return undefined;
    return copyScopeFields(value, companyId, optionalIdentifier);
  } catch {
    // A getter or proxy that throws: zod, run next, names the field.
    return undefined;
  }
}

/** A checked copy of a query request (`memoryQueryRequestSchema`), or undefined when zod must say why not. */
export function copyValidQueryRequest(value: unknown): MemoryQueryRequest | undefined {
  try {
    return copyQueryRequest(value);
  } catch {
    // A getter or proxy that throws: zod, run next, names the field.
    return undefined;
  }
}

function copyQueryRequest(value: unknown): MemoryQueryRequest | undefined {
  if (!isRecord(value)) return undefined;
  const { bindingKey, query, topK, intent, metadataFilter } = value;
  if (!isIdentifier(bindingKey) || !hasOnlyKeys(value, queryKeys)) return undefined;
  if (typeof query !== 'string' || query.length > 10_000 || query.trim() === '' || !isWellFormedText(query)) return undefined;
  if (topK !== undefined && !isCount(topK, maximumTopK)) return undefined;
  if (intent !== undefined && !queryIntents.has(intent)) return undefined;
  const filter = metadataFilter === undefined ? undefined : detachJsonValue(metadataFilter);
  if (filter !== undefined && !isJsonObject(filter)) return undefined;
  const scope = copyValidScope(value.scope);
  if (scope === undefined) return undefined;
  const request: MemoryQueryRequest = { bindingKey, scope, query };
  if (topK !== undefined) request.topK = topK as number;
  if (intent !== undefined) request.intent = intent as MemoryQueryRequest['intent'];
  if (filter !== undefined) request.metadataFilter = filter;
  return request;
}

/** A checked copy of a list request (`memoryListRequestSchema`), or undefined when zod must say why not. */
export function copyValidListRequest(value: unknown): MemoryListRequest | undefined {
  try {
    return copyListRequest(value);
  } catch {
    // A getter or proxy that throws: zod, run next, names the field.
    return undefined;
  }
}

function copyListRequest(value: unknown): MemoryListRequest | undefined {
  if (!isRecord(value)) return undefined;
  const { bindingKey, cursor, limit, metadataFilter } = value;
  if (!isIdentifier(bindingKey) || !hasOnlyKeys(value, listKeys)) return undefined;
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length < 1 || cursor.length > 4096)) return undefined;
  if (limit !== undefined && !isCount(limit, maximumListLimit)) return undefined;
  const filter = metadataFilter === undefined ? undefined : detachJsonValue(metadataFilter);
  if (filter !== undefined && !isJsonObject(filter)) return undefined;
  const scope = copyValidScope(value.scope);
  if (scope === undefined) return undefined;
  const request: MemoryListRequest = { bindingKey, scope };
  if (cursor !== undefined) request.cursor = cursor as string;
  if (limit !== undefined) request.limit = limit as number;
  if (filter !== undefined) request.metadataFilter = filter;
  return request;
}
