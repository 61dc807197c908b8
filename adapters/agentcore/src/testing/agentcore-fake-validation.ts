/**
 * The constraints of the AgentCore data plane, as the API reference states them (test-only,
 * not part of the build). The fake enforces them, so a request the real service would refuse
 * fails in the tests too instead of passing silently.
 */

/** A metadata value on the wire: a union with exactly one member. */
export interface WireMetadataValue {
  stringValue?: string;
  stringListValue?: string[];
  numberValue?: number;
  dateTimeValue?: number;
}

/** API_MemoryRecord: `namespaces`, 1–1024 characters each. */
export const namespacePattern = /^[a-zA-Z0-9/*][a-zA-Z0-9\-_/*]*(?::[a-zA-Z0-9\-_/*]+)*[a-zA-Z0-9\-_/*]*$/;
/** API_Event: `actorId`, 1–255 characters. */
export const actorIdPattern = /^[a-zA-Z0-9][a-zA-Z0-9\-_/]*(?::[a-zA-Z0-9\-_/]+)*[a-zA-Z0-9\-_/]*$/;
/** API_Event: `sessionId`, 1–100 characters. */
export const sessionIdPattern = /^[a-zA-Z0-9][a-zA-Z0-9\-_]*$/;
/** API_MemoryRecordCreateInput: `requestIdentifier`. */
export const requestIdentifierPattern = /^[a-zA-Z0-9_-]{1,80}$/;
/** API_MemoryRecord: metadata keys, 1–128 characters; also the value pattern of string values. */
export const metadataTextPattern = /^[a-zA-Z0-9\s._:/=+@-]*$/;

const conversationalRoles = new Set(['USER', 'ASSISTANT', 'TOOL', 'OTHER']);

/** Why a record namespace list is invalid, or undefined. A record holds at most one namespace. */
export function checkNamespaces(namespaces: unknown): string | undefined {
  if (!Array.isArray(namespaces)) return 'namespaces must be a list';
  if (namespaces.length > 1) return `namespaces has ${namespaces.length} items; a record holds at most 1`;
  for (const namespace of namespaces) {
    if (typeof namespace !== 'string' || namespace.length < 1 || namespace.length > 1024 || !namespacePattern.test(namespace)) {
      return `namespace ${JSON.stringify(namespace)} does not satisfy the constraints`;
    }
  }
  return undefined;
}

/**
 * Why a metadata map is invalid, or undefined: at most 15 entries, keys of 1–128 characters
 * of `[a-zA-Z0-9\s._:/=+@-]`, values with exactly one member. Record string values hold 1–256
 * characters of the same set (`minimumStringLength` 1); event values 0–256 and strings only.
 */
export function checkMetadata(metadata: unknown, kind: 'record' | 'event'): string | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null) return 'metadata must be a map';
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > 15) return `metadata has ${entries.length} entries; at most 15 are allowed`;
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > 128 || !metadataTextPattern.test(key)) return `metadata key ${JSON.stringify(key)} does not satisfy the constraints`;
    const members = Object.keys((value ?? {}) as object);
    if (members.length !== 1) return `metadata value of ${key} must have exactly one member`;
    const { stringValue, stringListValue } = value as WireMetadataValue;
    if (kind === 'event' && stringValue === undefined) return `event metadata value of ${key} must be a stringValue`;
    if (stringValue !== undefined) {
      const minimum = kind === 'record' ? 1 : 0;
      if (stringValue.length < minimum || stringValue.length > 256 || !metadataTextPattern.test(stringValue)) {
        return `metadata value of ${key} (${stringValue.length} characters) does not satisfy the constraints`;
      }
    }
    if (stringListValue !== undefined) {
      if (stringListValue.length < 1 || stringListValue.length > 5) return `stringListValue of ${key} must hold 1 to 5 items`;
      if (stringListValue.some((item) => item.length < 1 || item.length > 64 || !metadataTextPattern.test(item))) {
        return `stringListValue of ${key} has an item that does not satisfy the constraints`;
      }
    }
  }
  return undefined;
}

/** Why an event payload list is invalid, or undefined: 1–100 items, each exactly one member. */
export function checkPayload(payload: unknown): string | undefined {
  if (!Array.isArray(payload) || payload.length < 1 || payload.length > 100) return 'payload must hold 1 to 100 items';
  for (const item of payload) {
    const members = Object.keys((item ?? {}) as object);
    if (members.length !== 1) return 'each payload item must have exactly one member';
    const conversational = (item as { conversational?: { role?: unknown; content?: { text?: unknown } } }).conversational;
    if (conversational !== undefined) {
      if (!conversationalRoles.has(String(conversational.role))) return `role ${String(conversational.role)} is not one of USER, ASSISTANT, TOOL, OTHER`;
      if (typeof conversational.content?.text !== 'string') return 'conversational content must have text';
    }
  }
  return undefined;
}

/** Why an actor id is invalid, or undefined. */
export function checkActorId(actorId: unknown): string | undefined {
  return typeof actorId === 'string' && actorId.length <= 255 && actorIdPattern.test(actorId) ? undefined : `actorId ${JSON.stringify(actorId)} does not satisfy the constraints`;
}

/** Why a session id is invalid, or undefined. */
export function checkSessionId(sessionId: unknown): string | undefined {
  return typeof sessionId === 'string' && sessionId.length <= 100 && sessionIdPattern.test(sessionId) ? undefined : `sessionId ${JSON.stringify(sessionId)} does not satisfy the constraints`;
}
