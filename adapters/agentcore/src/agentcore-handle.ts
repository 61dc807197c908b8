import type { MemoryRecordHandle } from '@memplane/core';

/** The provider key of the AgentCore adapter. Every handle it issues carries it. */
export const agentCoreProviderKey = 'agentcore';

const recordPrefix = 'record:';
const eventPrefix = 'event:';
const recordIdPattern = /^mem-[a-zA-Z0-9_-]{1,46}$/;
const actorIdPattern = /^[a-zA-Z0-9][a-zA-Z0-9_/-]{0,254}$/;
const sessionIdPattern = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,99}$/;
const eventIdPattern = /^[0-9]+#[a-fA-F0-9]+$/;

/** Where one AgentCore event lives: events are addressed by actor, session and event id. */
export interface AgentCoreEventAddress {
  /** The actor of the event. */
  actorId: string;
  /** The session of the event. */
  sessionId: string;
  /** The event id (`<digits>#<hex>`). */
  eventId: string;
}

/** A handle decoded: which kind of AgentCore object it points at. */
export type AgentCoreHandleTarget =
  | { kind: 'record'; memoryRecordId: string }
  | ({ kind: 'event' } & AgentCoreEventAddress);

/** The handle of a long-term memory record: `record:<memoryRecordId>`. */
export function toRecordHandle(memoryRecordId: string): MemoryRecordHandle {
  return { providerKey: agentCoreProviderKey, providerRecordId: `${recordPrefix}${memoryRecordId}` };
}

/**
 * The handle of a captured event: `event:<actorId>;<sessionId>;<eventId>`. `;` appears in
 * none of the three AgentCore patterns, so the parts split back unambiguously.
 */
export function toEventHandle(address: AgentCoreEventAddress): MemoryRecordHandle {
  return {
    providerKey: agentCoreProviderKey,
    providerRecordId: `${eventPrefix}${address.actorId};${address.sessionId};${address.eventId}`,
  };
}

/**
 * What a handle points at, or undefined when it is not a handle this adapter issued (an
 * unknown kind, or ids that do not match AgentCore's patterns), so it is never sent to AWS.
 */
export function readHandle(handle: MemoryRecordHandle): AgentCoreHandleTarget | undefined {
  const id = handle.providerRecordId;
  if (id.startsWith(recordPrefix)) {
    const memoryRecordId = id.slice(recordPrefix.length);
    return recordIdPattern.test(memoryRecordId) ? { kind: 'record', memoryRecordId } : undefined;
  }
  if (id.startsWith(eventPrefix)) {
    const [actorId = '', sessionId = '', eventId = '', ...rest] = id.slice(eventPrefix.length).split(';');
    if (rest.length > 0 || !actorIdPattern.test(actorId) || !sessionIdPattern.test(sessionId) || !eventIdPattern.test(eventId)) {
      return undefined;
    }
    return { kind: 'event', actorId, sessionId, eventId };
  }
  return undefined;
}
