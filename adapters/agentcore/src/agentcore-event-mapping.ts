import type { MemoryScope, MemorySnippet, MemoryWarning } from '@memplane/core';
import type { AgentCoreEvent } from './agentcore-api-schemas';
import { toEventHandle } from './agentcore-handle';
import { applyProvenance, type RequestedScope } from './agentcore-record-mapping';
import type { EncodedScope } from './agentcore-scope-mapping';
import { findStoredScopeViolation, parseActorId, toSnippetScope, type StoredScope } from './agentcore-stored-scope';

/** Where an event keeps its scope, or undefined when its actor is outside the adapter's layout. */
export function storedScopeOfEvent(actorId: string, metadata: AgentCoreEvent['metadata']): StoredScope | undefined {
  const parsed = parseActorId(actorId);
  return parsed === undefined ? undefined : { ...parsed, metadata };
}

/**
 * Whether an event can belong to the scope at all, judged from its actor id alone,
 * so an event of another company is never even read.
 */
export function actorMayBelongToScope(actorId: string, encoded: EncodedScope): boolean {
  const parsed = parseActorId(actorId);
  if (parsed === undefined || parsed.companySegment !== encoded.companyId) return false;
  return encoded.agentId === undefined || parsed.agentSegment === encoded.agentId;
}

/** The text of an event: its conversational turns, one per line, and its blob and JSON payloads as JSON. */
export function eventText(event: AgentCoreEvent): string {
  return event.payload
    .map((item) => {
      if (item.conversational !== undefined) return item.conversational.content.text ?? '';
      if (item.json !== undefined) return JSON.stringify(item.json.content);
      return item.blob === undefined ? '' : JSON.stringify(item.blob);
    })
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Maps a captured event to a snippet after the adapter's scope check (actor path and scope
 * metadata), or undefined when the event is outside the requested scope.
 */
export function readEvent(event: AgentCoreEvent, requested: RequestedScope, warnings: MemoryWarning[]): MemorySnippet | undefined {
  const stored = storedScopeOfEvent(event.actorId, event.metadata);
  if (stored === undefined || findStoredScopeViolation(stored, requested.encoded) !== undefined) return undefined;
  const scope: MemoryScope = toSnippetScope(stored, requested.scope);
  const snippet: MemorySnippet = {
    handle: toEventHandle(event),
    text: eventText(event),
    scope,
    createdAt: event.eventTimestamp.toISOString(),
  };
  if (applyProvenance(snippet, event.metadata, requested.scope.companyId, warnings).kind === 'foreign-source') return undefined;
  return snippet;
}
