import type { MemoryScope, MemoryWarning } from '@memplane/core';
import { encodeIdentifier, isHashedIdentifier, maximumEncodedIdentifierLength } from './agentcore-identifier-encoding';

/**
 * The scope fields stored as record and event metadata, with their metadata keys. The
 * company and the agent live in the namespace path (and the actor id) instead, which
 * AgentCore filters as a prefix.
 */
export const agentCoreScopeMetadataKeys = {
  projectId: 'memplane.projectId',
  issueId: 'memplane.issueId',
  runId: 'memplane.runId',
  subjectId: 'memplane.subjectId',
  sessionKey: 'memplane.sessionKey',
  namespace: 'memplane.namespace',
} as const;

/**
 * The key holding `{sessionKey}.{runId}` on a record or event that has both. AgentCore takes
 * at most 5 metadata filters per list or retrieve call, and a scope can name all six metadata
 * fields; such a scope filters on this combined key instead of the two single keys, so every
 * scope the contract allows is filtered exactly at AgentCore within 5 filters. Encoded ids
 * never contain `.`, so the pair cannot be read two ways.
 */
export const agentCoreSessionRunMetadataKey = 'memplane.sessionKey.runId';

/**
 * The most metadata filters one `ListMemoryRecords` or `RetrieveMemoryRecords` call takes
 * (API_SearchCriteria and API_ListMemoryRecords: `metadataFilters`, 1 to 5 items).
 */
export const agentCoreMaximumMetadataFilters = 5;

/**
 * Every metadata key the adapter filters on. Each must be declared on the memory as a
 * `STRING` indexed key (AgentCore refuses a filter on an undeclared key; a memory holds at
 * most 10 and never drops one): `setupAgentCoreMemory` or `memplane agentcore setup` does it.
 */
export const agentCoreIndexedKeys: readonly string[] = [...Object.values(agentCoreScopeMetadataKeys), agentCoreSessionRunMetadataKey];

/** A scope field stored as metadata. */
export type MetadataScopeField = keyof typeof agentCoreScopeMetadataKeys;

/** The scope fields stored as metadata, in a stable order. */
export const metadataScopeFields = Object.keys(agentCoreScopeMetadataKeys) as MetadataScopeField[];

/** A scope with every field encoded for AgentCore. */
export interface EncodedScope {
  /** The encoded company id. */
  companyId: string;
  /** The encoded agent id, when the scope has one. */
  agentId?: string;
  /** The encoded metadata fields that are set, by field. */
  fields: Partial<Record<MetadataScopeField, string>>;
}

/** Encodes every field of a scope once, so records can be compared without re-encoding. */
export function encodeScope(scope: MemoryScope): EncodedScope {
  const encoded: EncodedScope = { companyId: encodeIdentifier(scope.companyId), fields: {} };
  if (scope.agentId !== undefined) encoded.agentId = encodeIdentifier(scope.agentId);
  for (const field of metadataScopeFields) {
    const value = scope[field];
    if (value !== undefined) encoded.fields[field] = encodeIdentifier(value);
  }
  return encoded;
}

/** The namespace path of a scope without the surrounding slashes: `c/{company}` or `c/{company}/a/{agent}`. */
function scopePath(encoded: EncodedScope): string {
  return encoded.agentId === undefined ? `c/${encoded.companyId}` : `c/${encoded.companyId}/a/${encoded.agentId}`;
}

/**
 * The AgentCore namespace of a scope: `/c/{company}/` or `/c/{company}/a/{agent}/`. It always
 * ends with `/`, because AgentCore matches namespaces as prefixes: without it `/c/c1` would
 * also match `/c/c10/`, which is another company.
 */
export function toNamespace(encoded: EncodedScope): string {
  return `/${scopePath(encoded)}/`;
}

/**
 * The AgentCore actor of a capture: the namespace path without its slashes
 * (`c/{company}/a/{agent}`). A strategy whose namespace template is `/{actorId}/` therefore
 * writes the records it extracts into the scope's own namespace.
 */
export function toActorId(encoded: EncodedScope): string {
  return scopePath(encoded);
}

/**
 * The AgentCore session of a capture: `k-{sessionKey}` when the scope has a session key,
 * otherwise `r-{runId}`, otherwise none (AgentCore then starts a new session per event).
 * Events of one session are extracted together.
 */
export function toSessionId(encoded: EncodedScope): string | undefined {
  if (encoded.fields.sessionKey !== undefined) return `k-${encoded.fields.sessionKey}`;
  if (encoded.fields.runId !== undefined) return `r-${encoded.fields.runId}`;
  return undefined;
}

/** The metadata entries that store the scope's metadata fields, as AgentCore string values. */
export function toScopeMetadata(encoded: EncodedScope): Record<string, { stringValue: string }> {
  const metadata: Record<string, { stringValue: string }> = {};
  for (const field of metadataScopeFields) {
    const value = encoded.fields[field];
    if (value !== undefined) metadata[agentCoreScopeMetadataKeys[field]] = { stringValue: value };
  }
  const { sessionKey, runId } = encoded.fields;
  if (sessionKey !== undefined && runId !== undefined) metadata[agentCoreSessionRunMetadataKey] = { stringValue: `${sessionKey}.${runId}` };
  return metadata;
}

/** One `EQUALS_TO` metadata filter of list and retrieve. */
export interface AgentCoreScopeFilter {
  left: { metadataKey: string };
  operator: 'EQUALS_TO';
  right: { metadataValue: { stringValue: string } };
}

function equalsTo(metadataKey: string, value: string): AgentCoreScopeFilter {
  return { left: { metadataKey }, operator: 'EQUALS_TO', right: { metadataValue: { stringValue: value } } };
}

/**
 * The provider-side filters that keep only records whose metadata scope fields equal the
 * scope's: one `EQUALS_TO` per named field, at most 5 (AgentCore's limit). A scope naming all
 * six fields filters on the combined session-and-run key instead of the two single keys.
 * Every filter key is one of {@link agentCoreIndexedKeys}.
 */
export function toScopeFilters(encoded: EncodedScope): AgentCoreScopeFilter[] {
  const { fields } = encoded;
  const named = metadataScopeFields.filter((field) => fields[field] !== undefined);
  const combine = named.length > agentCoreMaximumMetadataFilters && fields.sessionKey !== undefined && fields.runId !== undefined;
  const filters: AgentCoreScopeFilter[] = [];
  for (const field of named) {
    if (combine && (field === 'sessionKey' || field === 'runId')) continue;
    filters.push(equalsTo(agentCoreScopeMetadataKeys[field], fields[field] as string));
  }
  if (combine) filters.push(equalsTo(agentCoreSessionRunMetadataKey, `${fields.sessionKey}.${fields.runId}`));
  return filters;
}

/** Compatibility warnings for scope fields stored as digests because they are too long to encode. */
export function hashedScopeWarnings(scope: MemoryScope, encoded: EncodedScope): MemoryWarning[] {
  const stored: Array<[string, string | undefined]> = [
    ['companyId', encoded.companyId],
    ['agentId', encoded.agentId],
    ...metadataScopeFields.map((field): [string, string | undefined] => [field, encoded.fields[field]]),
  ];
  return stored
    .filter((entry): entry is [string, string] => entry[1] !== undefined && isHashedIdentifier(entry[1]))
    .map(([field]) => ({
      type: 'compatibility',
      feature: `scope.${field}`,
      details: `scope.${field} (${String(scope[field as keyof MemoryScope]).length} characters) encodes to more than ${maximumEncodedIdentifierLength} characters, so it is stored as a SHA-256 digest: reads still match it exactly, but return it only when the request names it.`,
    }));
}
