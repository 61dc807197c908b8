/**
 * The normalized scope of a memory request or record.
 *
 * Matching rule: a record matches a request's scope when every field set on the
 * request equals the record's field. Fields left unset on the request do not
 * constrain the match. `companyId` is always set, so nothing ever crosses companies.
 */
export interface MemoryScope {
  /** The tenant boundary. Required on every call; records never cross companies. */
  companyId: string;
  /** The agent the memory belongs to, or that is asking. */
  agentId?: string;
  /** The project the work belongs to. Used for partitioning and retrieval, never for binding selection. */
  projectId?: string;
  /** The issue the work belongs to. */
  issueId?: string;
  /** The run (heartbeat run) that produced or asks for the memory. */
  runId?: string;
  /** An external or end-user identity the memory is about. */
  subjectId?: string;
  /** A session key, for providers that organise memory around sessions. */
  sessionKey?: string;
  /** An explicit partition hint for providers that need one. */
  namespace?: string;
}

/** The names of the fields of {@link MemoryScope}, in a stable order. */
export const memoryScopeFields = [
  'companyId',
  'agentId',
  'projectId',
  'issueId',
  'runId',
  'subjectId',
  'sessionKey',
  'namespace',
] as const satisfies ReadonlyArray<keyof MemoryScope>;

/** One field name of {@link MemoryScope}. */
export type MemoryScopeField = (typeof memoryScopeFields)[number];
