import { GetEventCommand, GetMemoryRecordCommand } from '@aws-sdk/client-bedrock-agentcore';
import {
  MemoryNotFoundError,
  type MemoryRecordHandle,
  type MemoryScope,
  type MemorySnippet,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreEventResultSchema, agentCoreGetRecordSchema, type AgentCoreEvent, type AgentCoreRecord } from './agentcore-api-schemas';
import { actorMayBelongToScope, readEvent, storedScopeOfEvent } from './agentcore-event-mapping';
import { readHandle, type AgentCoreEventAddress } from './agentcore-handle';
import { readRecord, storedScopeOfRecord, type RequestedScope } from './agentcore-record-mapping';
import { encodeScope, toNamespace } from './agentcore-scope-mapping';
import { findStoredScopeViolation } from './agentcore-stored-scope';

async function nullWhenMissing<Value>(read: () => Promise<Value>): Promise<Value | undefined> {
  try {
    return await read();
  } catch (error) {
    if (MemoryNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/**
 * Reads one record with `GetMemoryRecord` and returns it only when it is inside the scope.
 * A missing record and one of another scope look the same (undefined), so a handle reveals
 * nothing about what exists elsewhere. With `sendNamespaceWithRecordCalls`, the scope's
 * namespace goes along for IAM namespace conditions.
 */
export async function fetchRecordInScope(
  context: AgentCoreAdapterContext,
  memoryRecordId: string,
  handle: MemoryRecordHandle,
  requested: RequestedScope,
  usage: MemoryUsage[],
): Promise<AgentCoreRecord | undefined> {
  const read = await nullWhenMissing(() =>
    context.call({ operation: 'GetMemoryRecord', resourceId: handle.providerRecordId }, agentCoreGetRecordSchema, (abortSignal) =>
      context.client.send(
        new GetMemoryRecordCommand({
          memoryId: context.memoryId,
          memoryRecordId,
          ...(context.sendNamespaceWithRecordCalls ? { namespace: toNamespace(requested.encoded) } : {}),
        }),
        { abortSignal },
      ),
    ),
  );
  if (read === undefined) return undefined;
  usage.push(read.usage);
  const record = read.value.memoryRecord;
  const stored = storedScopeOfRecord(record);
  if (record.memoryRecordId !== memoryRecordId || stored === undefined) return undefined;
  return findStoredScopeViolation(stored, requested.encoded) === undefined ? record : undefined;
}

/**
 * Reads one captured event with `GetEvent` and returns it only when it is inside the scope.
 * An event whose actor belongs to another company or agent is never read.
 */
export async function fetchEventInScope(
  context: AgentCoreAdapterContext,
  address: AgentCoreEventAddress,
  handle: MemoryRecordHandle,
  requested: RequestedScope,
  usage: MemoryUsage[],
): Promise<AgentCoreEvent | undefined> {
  if (!actorMayBelongToScope(address.actorId, requested.encoded)) return undefined;
  const read = await nullWhenMissing(() =>
    context.call({ operation: 'GetEvent', resourceId: handle.providerRecordId }, agentCoreEventResultSchema, (abortSignal) =>
      context.client.send(new GetEventCommand({ memoryId: context.memoryId, ...address }), { abortSignal }),
    ),
  );
  if (read === undefined) return undefined;
  usage.push(read.usage);
  const event = read.value.event;
  const stored = storedScopeOfEvent(event.actorId, event.metadata);
  if (event.eventId !== address.eventId || stored === undefined) return undefined;
  return findStoredScopeViolation(stored, requested.encoded) === undefined ? event : undefined;
}

/**
 * `get`: `GetMemoryRecord` for a record handle, `GetEvent` for the event handle a capture
 * returned. Anything missing, outside the scope or not issued by this adapter reads as null.
 */
export async function getAgentCoreRecord(
  context: AgentCoreAdapterContext,
  handle: MemoryRecordHandle,
  scope: MemoryScope,
): Promise<MemorySnippet | null> {
  const target = readHandle(handle);
  if (target === undefined) return null;
  const requested: RequestedScope = { scope, encoded: encodeScope(scope) };
  const usage: MemoryUsage[] = [];
  // get results carry no warnings; a dropped source or unreadable provenance shows as its absence.
  const warnings: MemoryWarning[] = [];
  if (target.kind === 'record') {
    const record = await fetchRecordInScope(context, target.memoryRecordId, handle, requested, usage);
    return record === undefined ? null : (readRecord(record, requested, warnings) ?? null);
  }
  const event = await fetchEventInScope(context, target, handle, requested, usage);
  return event === undefined ? null : (readEvent(event, requested, warnings) ?? null);
}
