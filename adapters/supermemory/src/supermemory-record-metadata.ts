import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { MemoryHookKind, MemoryScope, MemorySourceRef, MemoryWarning } from '@memplane/core';
import { scopeFromMetadata, scopeToMetadata, type SupermemoryFilterCondition } from './supermemory-scope-mapping';

/**
 * Supermemory metadata is flat: keys of `[A-Za-z0-9_.-]` up to 64 characters, values that
 * are strings, numbers, booleans or string arrays. Provenance and caller metadata are any
 * JSON, so each is stored whole as one JSON string (lossless round trip), and every top-level
 * caller key that fits the key rules with a scalar value is also copied under `mpf_<key>` so
 * Supermemory can filter on it.
 */
export const metadataKeys = {
  source: 'mp_source',
  callerMetadata: 'mp_metadata',
  summary: 'mp_summary',
  recordKey: 'mp_key',
  origin: 'mp_origin',
  hookKind: 'mp_hook',
  correctionReason: 'mp_reason',
  submittedAt: 'mp_submittedAt',
} as const;

const filterCopyPrefix = 'mpf_';
const filterableKey = /^[A-Za-z0-9_.-]{1,60}$/;

/** What the adapter writes with a record. */
export interface RecordMetadataInput {
  scope: MemoryScope;
  recordKey?: string;
  origin: 'record' | 'capture';
  source?: MemorySourceRef;
  metadata?: Record<string, unknown>;
  summary?: string;
  hookKind?: MemoryHookKind;
  correctionReason?: string;
  submittedAtMs?: number;
}

/** What the adapter reads back from a record's metadata. */
export interface DecodedRecordMetadata {
  scope: MemoryScope | undefined;
  recordKey: string | undefined;
  origin: string | undefined;
  source: MemorySourceRef | undefined;
  metadata: Record<string, unknown> | undefined;
  summary: string | undefined;
  hookKind: string | undefined;
  submittedAtMs: number | undefined;
}

/** A new record key: 16 random bytes, base64url. Every version of a record keeps its key. */
export function createRecordKey(): string {
  return randomBytes(16).toString('base64url');
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** The flat Supermemory metadata of a record. */
export function encodeRecordMetadata(input: RecordMetadataInput): Record<string, string | number | boolean> {
  const encoded: Record<string, string | number | boolean> = {
    ...scopeToMetadata(input.scope),
    [metadataKeys.origin]: input.origin,
  };
  if (input.recordKey !== undefined) encoded[metadataKeys.recordKey] = input.recordKey;
  if (input.source !== undefined) encoded[metadataKeys.source] = JSON.stringify(input.source);
  if (input.summary !== undefined) encoded[metadataKeys.summary] = input.summary;
  if (input.hookKind !== undefined) encoded[metadataKeys.hookKind] = input.hookKind;
  if (input.correctionReason !== undefined) encoded[metadataKeys.correctionReason] = input.correctionReason;
  if (input.submittedAtMs !== undefined) encoded[metadataKeys.submittedAt] = input.submittedAtMs;
  if (input.metadata !== undefined) {
    encoded[metadataKeys.callerMetadata] = JSON.stringify(input.metadata);
    for (const [key, value] of Object.entries(input.metadata)) {
      if (filterableKey.test(key) && isScalar(value)) encoded[`${filterCopyPrefix}${key}`] = value;
    }
  }
  return encoded;
}

function parseJsonObject(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const stringOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined);

// Records of one page usually share their source ref, and parsing it was the largest cost of
// reading a page (bench/supermemory-overhead). The last parse is kept; every caller gets its own
// shallow copy, which is a full copy because a source ref holds only strings.
let lastSource: { text: string; value: Record<string, unknown> | undefined } | undefined;

function parseSource(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  if (lastSource?.text !== text) lastSource = { text, value: parseJsonObject(text) };
  return lastSource.value === undefined ? undefined : { ...lastSource.value };
}

/**
 * Reads back what `encodeRecordMetadata` wrote. A JSON copy that no longer parses is left out
 * and reported as a `compatibility` warning rather than failing the whole read.
 */
export function decodeRecordMetadata(
  metadata: Record<string, unknown> | null | undefined,
  warnings: MemoryWarning[],
): DecodedRecordMetadata {
  const flat = metadata ?? {};
  const source = parseSource(flat[metadataKeys.source]);
  const callerMetadata = parseJsonObject(flat[metadataKeys.callerMetadata]);
  if (flat[metadataKeys.source] !== undefined && source === undefined) {
    warnings.push({ type: 'compatibility', feature: 'source', details: 'A stored source ref was not valid JSON and was left out.' });
  }
  if (flat[metadataKeys.callerMetadata] !== undefined && callerMetadata === undefined) {
    warnings.push({ type: 'compatibility', feature: 'metadata', details: 'Stored metadata was not valid JSON and was left out.' });
  }
  return {
    scope: scopeFromMetadata(flat),
    recordKey: stringOrUndefined(flat[metadataKeys.recordKey]),
    origin: stringOrUndefined(flat[metadataKeys.origin]),
    // Written by this adapter from a validated source ref; core checks its shape again on the way out.
    source: source as MemorySourceRef | undefined,
    metadata: callerMetadata,
    summary: stringOrUndefined(flat[metadataKeys.summary]),
    hookKind: stringOrUndefined(flat[metadataKeys.hookKind]),
    submittedAtMs: Number.isSafeInteger(flat[metadataKeys.submittedAt]) ? (flat[metadataKeys.submittedAt] as number) : undefined,
  };
}

/** The provider-side conditions of a metadata filter: the scalar values on filterable keys. */
export function metadataFilterToConditions(filter: Record<string, unknown> | undefined): SupermemoryFilterCondition[] {
  if (filter === undefined) return [];
  return Object.entries(filter)
    .filter(([key, value]) => filterableKey.test(key) && isScalar(value))
    .map(([key, value]) => ({ key: `${filterCopyPrefix}${key}`, value: String(value) }));
}

/** Whether the filter has values Supermemory cannot filter on (objects, arrays, null, odd keys). */
export function hasPostOnlyConditions(filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return false;
  return Object.entries(filter).some(([key, value]) => !filterableKey.test(key) || !isScalar(value));
}

/** The exact check after retrieval: every filter key is present with a deeply equal value. */
export function matchesMetadataFilter(
  metadata: Record<string, unknown> | undefined,
  filter: Record<string, unknown> | undefined,
): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(
    ([key, value]) => metadata !== undefined && Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value),
  );
}
