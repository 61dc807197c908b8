import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { MemoryValidationError, stableStringify, type MemoryHookContext, type MemoryScope, type MemorySourceRef } from '@memplane/core';
import { toScopeMetadata, type Mem0FilterClause } from './mem0-scope-mapping';

/** Metadata keys the adapter keeps for itself. Caller keys may not start with it. */
export const reservedMetadataPrefix = 'memplane_';

const sourceKey = 'memplane_source';
const summaryKey = 'memplane_summary';
const hookKey = 'memplane_hook';
const emptyMetadataKey = 'memplane_empty_metadata';
const equalityKeyPrefix = 'memplane_eq_';

/** What the adapter stores in a memory's mem0 metadata. */
export interface Mem0StoredFields {
  /** The scope of the write. */
  scope: MemoryScope;
  /** The caller's metadata, stored at the top level so filters on it run at mem0. */
  metadata?: Record<string, unknown>;
  /** The provenance of the write. */
  source?: MemorySourceRef;
  /** The record's summary. */
  summary?: string;
  /** The hook delivery behind a capture. */
  hook?: MemoryHookContext;
}

/** What the adapter reads back from a memory's mem0 metadata. */
export interface Mem0ReadFields {
  /** The caller's metadata, without the adapter's keys; undefined when none was written. */
  metadata?: Record<string, unknown>;
  /** The stored provenance, unchecked. */
  source?: unknown;
  /** The stored summary. */
  summary?: string;
  /** The stored hook context, unchecked. */
  hook?: unknown;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The key and value that stand for a caller key whose value is not a scalar. mem0's
 * metadata filter compares scalars only, so arrays, objects and null are matched through
 * the digest of their canonical JSON, which mem0 can compare.
 */
function equalityEntry(key: string, value: unknown): [string, string] {
  return [`${equalityKeyPrefix}${digest(key)}`, digest(stableStringify(value))];
}

/**
 * Refuses caller metadata keys in the adapter's reserved namespace, naming the field
 * (such as `records.0.metadata.memplane_x`).
 */
export function assertNoReservedKeys(metadata: Record<string, unknown> | undefined, path: string, target: string): void {
  const reserved = Object.keys(metadata ?? {}).find((key) => key.startsWith(reservedMetadataPrefix));
  if (reserved === undefined) return;
  throw new MemoryValidationError({
    target,
    issues: [{ path: `${path}.${reserved}`, message: `keys starting with ${reservedMetadataPrefix} are reserved by the mem0 adapter` }],
  });
}

/** The mem0 metadata of a write: caller keys, their equality digests, the scope and the provenance. */
export function toStoredMetadata(fields: Mem0StoredFields): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...fields.metadata };
  for (const [key, value] of Object.entries(fields.metadata ?? {})) {
    if (isScalar(value)) continue;
    const [digestKey, digestValue] = equalityEntry(key, value);
    stored[digestKey] = digestValue;
  }
  if (fields.metadata !== undefined && Object.keys(fields.metadata).length === 0) stored[emptyMetadataKey] = true;
  Object.assign(stored, toScopeMetadata(fields.scope));
  if (fields.source !== undefined) stored[sourceKey] = fields.source;
  if (fields.summary !== undefined) stored[summaryKey] = fields.summary;
  if (fields.hook !== undefined) stored[hookKey] = fields.hook;
  return stored;
}

/** Splits a memory's mem0 metadata into the caller's keys and the adapter's fields. */
export function readStoredMetadata(stored: Record<string, unknown>): Mem0ReadFields {
  const metadata: Record<string, unknown> = {};
  let callerKeys = 0;
  // for-in rather than Object.entries or Object.keys: this runs for every record of every
  // page, and the arrays those allocate were most of its cost (JSON objects inherit no keys).
  for (const key in stored) {
    if (key.startsWith(reservedMetadataPrefix)) continue;
    metadata[key] = stored[key];
    callerKeys += 1;
  }
  const read: Mem0ReadFields = {};
  if (callerKeys > 0 || stored[emptyMetadataKey] === true) read.metadata = metadata;
  if (stored[sourceKey] !== undefined) read.source = stored[sourceKey];
  if (typeof stored[summaryKey] === 'string') read.summary = stored[summaryKey];
  if (stored[hookKey] !== undefined) read.hook = stored[hookKey];
  return read;
}

/**
 * Merges a correction into stored metadata: named caller keys change (with their digests),
 * every other key, the scope and the provenance among them, stays.
 */
export function mergeStoredMetadata(
  stored: Record<string, unknown>,
  changes: { metadata?: Record<string, unknown>; summary?: string },
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(changes.metadata ?? {})) {
    merged[key] = value;
    const [digestKey, digestValue] = equalityEntry(key, value);
    if (isScalar(value)) delete merged[digestKey];
    else merged[digestKey] = digestValue;
  }
  if (changes.metadata !== undefined && Object.keys(changes.metadata).length > 0) delete merged[emptyMetadataKey];
  if (changes.summary !== undefined) merged[summaryKey] = changes.summary;
  return merged;
}

/** The mem0 filter clauses of a caller's metadata filter: all pushed down, none approximate. */
export function toMetadataFilterClauses(filter: Record<string, unknown> | undefined): Mem0FilterClause[] {
  return Object.entries(filter ?? {}).map(([key, value]) => {
    if (isScalar(value)) return { metadata: { [key]: value } };
    const [digestKey, digestValue] = equalityEntry(key, value);
    return { metadata: { [digestKey]: digestValue } };
  });
}

/** Whether caller metadata has every top-level value of the filter (deep equality). */
export function matchesMetadataFilter(metadata: Record<string, unknown> | undefined, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(
    ([key, value]) => metadata !== undefined && Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value),
  );
}
