import type { MemoryScope } from '@memplane/core';
import type { AgentCoreMetadata } from './agentcore-api-schemas';
import { decodeIdentifier } from './agentcore-identifier-encoding';
import { agentCoreScopeMetadataKeys, metadataScopeFields, type EncodedScope } from './agentcore-scope-mapping';

/** Where a record or an event keeps its scope: the company and agent of its path, and its metadata. */
export interface StoredScope {
  /** The encoded company of the namespace path or actor id. */
  companySegment: string;
  /** The encoded agent of the namespace path or actor id, when it has one. */
  agentSegment: string | undefined;
  /** The metadata holding the other scope fields. */
  metadata: AgentCoreMetadata;
}

const namespacePattern = /^\/c\/([A-Za-z0-9_-]+)\/(?:a\/([A-Za-z0-9_-]+)\/)?/;
const maximumCachedNamespaces = 1024;
const parsedNamespaces = new Map<string, { companySegment: string; agentSegment: string | undefined } | null>();
const actorPattern = /^c\/([A-Za-z0-9_-]+)(?:\/a\/([A-Za-z0-9_-]+))?$/;

/**
 * The company and agent segments of a record namespace, such as `/c/acme/a/planner/`.
 * Deeper paths (a strategy template like `/{actorId}/preferences/`) keep the company and
 * agent of their prefix. Undefined for a namespace outside the adapter's layout.
 */
export function parseNamespace(namespace: string | undefined): { companySegment: string; agentSegment: string | undefined } | undefined {
  if (namespace === undefined) return undefined;
  // A page's records share a few namespaces, so each is parsed once; the cache is bounded.
  const cached = parsedNamespaces.get(namespace);
  if (cached !== undefined) return cached ?? undefined;
  const match = namespacePattern.exec(namespace);
  const parsed = match === null ? null : { companySegment: match[1] as string, agentSegment: match[2] };
  if (parsedNamespaces.size >= maximumCachedNamespaces) parsedNamespaces.clear();
  parsedNamespaces.set(namespace, parsed);
  return parsed ?? undefined;
}

/** The company and agent segments of an actor id such as `c/acme/a/planner`, or undefined. */
export function parseActorId(actorId: string): { companySegment: string; agentSegment: string | undefined } | undefined {
  const match = actorPattern.exec(actorId);
  return match === null ? undefined : { companySegment: match[1] as string, agentSegment: match[2] };
}

/**
 * Why a stored scope is outside the requested one, or undefined when it is inside. Values are
 * compared in their encoded form, which is exact (and collision-resistant for digests).
 */
export function findStoredScopeViolation(stored: StoredScope, encoded: EncodedScope): string | undefined {
  if (stored.companySegment !== encoded.companyId) return 'AgentCore returned a record of another company';
  if (encoded.agentId !== undefined && stored.agentSegment !== encoded.agentId) {
    return 'AgentCore returned a record of another agent';
  }
  for (const field of metadataScopeFields) {
    const wanted = encoded.fields[field];
    if (wanted !== undefined && stored.metadata?.[agentCoreScopeMetadataKeys[field]]?.stringValue !== wanted) {
      return `AgentCore returned a record whose ${field} differs from the requested one`;
    }
  }
  return undefined;
}

/**
 * The scope a record or event was written under, for a stored scope already checked against
 * the request. A field the request names is taken from the request (they are equal); any
 * other field is decoded, and left out when it was stored as a digest.
 */
export function toSnippetScope(stored: StoredScope, scope: MemoryScope): MemoryScope {
  const snippetScope: MemoryScope = { companyId: scope.companyId };
  if (stored.agentSegment !== undefined) {
    const agentId = scope.agentId ?? decodeIdentifier(stored.agentSegment);
    if (agentId !== undefined) snippetScope.agentId = agentId;
  }
  for (const field of metadataScopeFields) {
    const value = stored.metadata?.[agentCoreScopeMetadataKeys[field]]?.stringValue;
    if (typeof value !== 'string') continue;
    const decoded = scope[field] ?? decodeIdentifier(value);
    if (decoded !== undefined) snippetScope[field] = decoded;
  }
  return snippetScope;
}
