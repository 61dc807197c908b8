import { isDeepStrictEqual } from 'node:util';
import {
  memorySourceKindSchema,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourceRef,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreMetadata, AgentCoreRecord } from './agentcore-api-schemas';
import { toRecordHandle } from './agentcore-handle';
import { unpackProvenance, type StoredProvenance } from './agentcore-provenance';
import type { EncodedScope } from './agentcore-scope-mapping';
import { findStoredScopeViolation, parseNamespace, toSnippetScope, type StoredScope } from './agentcore-stored-scope';
import { toIsoTimestamp } from './agentcore-timestamp';

/** The scope a request asked for, encoded once for every record it reads. */
export interface RequestedScope {
  /** The scope as the caller gave it. */
  scope: MemoryScope;
  /** The same scope encoded for AgentCore. */
  encoded: EncodedScope;
}

/** Where a record keeps its scope, or undefined when its namespace is outside the adapter's layout. */
export function storedScopeOfRecord(record: AgentCoreRecord): StoredScope | undefined {
  // A record holds at most one namespace; one with none or several was not written by this adapter.
  const parsed = record.namespaces.length === 1 ? parseNamespace(record.namespaces[0]) : undefined;
  return parsed === undefined ? undefined : { companySegment: parsed.companySegment, agentSegment: parsed.agentSegment, metadata: record.metadata };
}

/** Why a record is outside the requested scope, or undefined when it is inside. */
export function findRecordScopeViolation(record: AgentCoreRecord, requested: RequestedScope): string | undefined {
  const stored = storedScopeOfRecord(record);
  if (stored === undefined) return 'AgentCore returned a record whose namespace is outside the memplane layout';
  return findStoredScopeViolation(stored, requested.encoded);
}

const sourceKinds = new Set<string>(memorySourceKindSchema.options);
const sourceTextFields = new Set(['companyId', 'issueId', 'commentId', 'documentKey', 'runId', 'activityId', 'externalRef']);

/**
 * Whether a stored source is a source ref: a known kind, and string fields only. A plain
 * check rather than a schema, because it runs for every record of every page; core validates
 * the result again before it leaves the adapter.
 */
function isSourceRef(value: unknown): value is MemorySourceRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const field = source[key];
    if (key === 'kind' ? !sourceKinds.has(field as string) : !sourceTextFields.has(key) || typeof field !== 'string') return false;
  }
  return typeof (value as { companyId?: unknown }).companyId === 'string' && typeof (value as { kind?: unknown }).kind === 'string';
}

/** What {@link applyProvenance} found. */
export type ProvenanceOutcome =
  | { kind: 'none' }
  | { kind: 'applied'; provenance: StoredProvenance }
  | { kind: 'foreign-source' };

/**
 * Adds the stored provenance to a snippet: source ref, caller metadata and summary. Chunks
 * that cannot be read, or a source that does not validate, are left out with a
 * `compatibility` warning rather than failing the whole read. A source of another company
 * is reported as `foreign-source`, so the caller drops the record.
 */
export function applyProvenance(
  snippet: MemorySnippet,
  metadata: AgentCoreMetadata,
  companyId: string,
  warnings: MemoryWarning[],
): ProvenanceOutcome {
  const provenance = unpackProvenance(metadata);
  if (provenance === undefined) return { kind: 'none' };
  if (provenance === 'unreadable') {
    warnings.push({ type: 'compatibility', feature: 'provenance', details: `The provenance of ${snippet.handle.providerRecordId} could not be read; it is returned without source and metadata.` });
    return { kind: 'none' };
  }
  if (provenance.s !== undefined) {
    if (!isSourceRef(provenance.s)) {
      warnings.push({ type: 'compatibility', feature: 'source', details: `The stored source of ${snippet.handle.providerRecordId} is not a valid source ref; it was left out.` });
    } else if (provenance.s.companyId !== companyId) {
      return { kind: 'foreign-source' };
    } else {
      snippet.source = provenance.s;
    }
  }
  if (typeof provenance.m === 'object' && provenance.m !== null && !Array.isArray(provenance.m)) snippet.metadata = provenance.m;
  if (typeof provenance.y === 'string') snippet.summary = provenance.y;
  return { kind: 'applied', provenance };
}

/**
 * Maps an AgentCore record to a snippet after the adapter's own scope check. A record outside
 * the requested scope (another company's namespace, another agent, a differing scope field,
 * a source of another company)
 * is dropped and reported as a `scope_violation` warning, never returned.
 */
export function readRecord(record: AgentCoreRecord, requested: RequestedScope, warnings: MemoryWarning[]): MemorySnippet | undefined {
  const handle = toRecordHandle(record.memoryRecordId);
  const stored = storedScopeOfRecord(record);
  const violation =
    stored === undefined
      ? 'AgentCore returned a record whose namespace is outside the memplane layout'
      : findStoredScopeViolation(stored, requested.encoded);
  if (stored === undefined || violation !== undefined) {
    warnings.push({ type: 'scope_violation', providerRecordId: handle.providerRecordId, details: violation });
    return undefined;
  }
  const snippet: MemorySnippet = {
    handle,
    text: record.content.text,
    scope: toSnippetScope(stored, requested.scope),
    createdAt: toIsoTimestamp(record.createdAt),
  };
  if (record.score !== undefined) snippet.score = record.score;
  if (applyProvenance(snippet, record.metadata, requested.scope.companyId, warnings).kind === 'foreign-source') {
    warnings.push({ type: 'scope_violation', providerRecordId: handle.providerRecordId, details: 'its source belongs to another company' });
    return undefined;
  }
  return snippet;
}

/** Whether a snippet's caller metadata has every top-level value of the filter (deep equality). */
export function matchesMetadataFilter(snippet: MemorySnippet, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  const metadata = snippet.metadata;
  if (metadata === undefined) return Object.keys(filter).length === 0;
  return Object.entries(filter).every(([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value));
}
