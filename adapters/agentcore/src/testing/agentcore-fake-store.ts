import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { WireMetadataValue } from './agentcore-fake-validation';

/**
 * The state of the fake AgentCore Memory (test-only, not part of the build): long-term
 * records, events, failed extraction jobs and a simulated strategy, with AgentCore's own
 * semantics where the tests depend on them:
 * - `namespace` on list and retrieve is a PREFIX match (`/c/c1` matches `/c/c10/`), so an
 *   adapter that forgot the trailing `/` leaks across companies here as it would on AWS
 *   (API_RetrieveMemoryRecords.html and API_ListMemoryRecords.html: "namespaces that start
 *   with the provided prefix");
 * - extraction runs only when `drainExtraction()` is called, so a record extracted from an
 *   event is not visible right after `CreateEvent`, as on AWS (extraction is asynchronous:
 *   the developer guide's long-term memory pages);
 * - only FAILED extraction jobs exist as objects (API_ListMemoryExtractionJobs.html).
 */

/** A long-term record as stored (timestamps in epoch seconds, as on the wire). */
export interface FakeRecord {
  memoryRecordId: string;
  content: { text: string };
  memoryStrategyId?: string;
  namespaces: string[];
  createdAt: number;
  metadata?: Record<string, WireMetadataValue>;
  /** Creation order; list pages follow it. */
  sequence: number;
}

/** An event as stored. */
export interface FakeEvent {
  memoryId: string;
  actorId: string;
  sessionId: string;
  eventId: string;
  eventTimestamp: number;
  payload: Array<Record<string, unknown>>;
  metadata?: Record<string, WireMetadataValue>;
}

/** A failed extraction job as `ListMemoryExtractionJobs` returns it. */
export interface FakeExtractionJob {
  jobID: string;
  messages: { messagesList: Array<{ eventId: string; messageIndex: number }> };
  status: 'FAILED';
  failureReason: string;
  strategyId: string;
  sessionId: string;
  actorId: string;
  /** Creation order. */
  sequence: number;
}

/** One metadata filter expression of list and retrieve. */
export interface FakeMetadataFilter {
  left?: { metadataKey?: string };
  operator?: string;
  right?: { metadataValue?: WireMetadataValue };
}

/** Settings of the fake. */
export interface FakeStoreSettings {
  /** The memory the fake serves; calls for another memory answer ResourceNotFoundException. */
  memoryId: string;
  /** Whether an extraction started now should fail (the test server's `extraction_failure` fault). */
  isExtractionFailureInForce?: () => boolean;
  /** The namespace template of the simulated strategy. Default `/{actorId}/`. */
  strategyNamespaceTemplate?: string;
  /**
   * The indexed keys the memory was created with (CreateMemory `indexedKeys`). Default none,
   * as a memory created without them: every metadata filter is then refused.
   */
  indexedKeys?: ReadonlyArray<{ key: string; type: string }>;
  /** The control-plane status of the memory. Default `ACTIVE`. */
  memoryStatus?: 'ACTIVE' | 'CREATING' | 'UPDATING' | 'FAILED' | 'DELETING';
}

const strategyId = 'memplane_fake_semantic-AbCdEf0123';
const stopwords = new Set(['a', 'an', 'and', 'are', 'for', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'what', 'which', 'with']);

/** Lower-case terms, split on anything that is not a letter or a digit. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term !== '' && !stopwords.has(term));
}

function matchesFilter(metadata: Record<string, WireMetadataValue> | undefined, filter: FakeMetadataFilter): boolean {
  const key = filter.left?.metadataKey ?? '';
  const present = metadata !== undefined && Object.hasOwn(metadata, key);
  if (filter.operator === 'EXISTS') return present;
  if (filter.operator === 'NOT_EXISTS') return !present;
  return present && isDeepStrictEqual(metadata[key], filter.right?.metadataValue);
}

/** Creates an empty fake memory. */
export function createAgentCoreFakeStore(settings: FakeStoreSettings) {
  const records = new Map<string, FakeRecord>();
  const events = new Map<string, FakeEvent>();
  const jobs = new Map<string, FakeExtractionJob>();
  let pendingExtraction: Array<{ event: FakeEvent; failing: boolean; jobId?: string }> = [];
  const idempotent = new Map<string, unknown>();
  // The control plane's view of the memory: its indexed keys (key to type), in declaration order.
  const indexedKeys = new Map<string, string>((settings.indexedKeys ?? []).map(({ key, type }) => [key, type]));
  let sequence = 0;
  const eventKey = (actorId: string, sessionId: string, eventId: string) => `${actorId}\u0000${sessionId}\u0000${eventId}`;
  const visible = (namespace: string, filters: FakeMetadataFilter[]) =>
    [...records.values()].filter(
      // AgentCore's rule: the record's namespace STARTS WITH the requested one.
      (record) => (record.namespaces[0] ?? '').startsWith(namespace) && filters.every((filter) => matchesFilter(record.metadata, filter)),
    );

  function createRecord(input: Omit<FakeRecord, 'memoryRecordId' | 'sequence' | 'createdAt'>): FakeRecord {
    sequence += 1;
    const record: FakeRecord = { ...structuredClone(input), memoryRecordId: `mem-${randomUUID()}`, createdAt: Date.now() / 1000, sequence };
    records.set(record.memoryRecordId, record);
    return record;
  }

  function extract(item: { event: FakeEvent; failing: boolean; jobId?: string }): void {
    const { event } = item;
    if (item.failing) {
      sequence += 1;
      const jobID = item.jobId ?? `extraction-job-${randomBytes(8).toString('hex')}`;
      jobs.set(jobID, {
        jobID,
        messages: { messagesList: [{ eventId: event.eventId, messageIndex: 0 }] },
        status: 'FAILED',
        failureReason: 'Model invocation failed while extracting memories (injected extraction_failure).',
        strategyId,
        sessionId: event.sessionId,
        actorId: event.actorId,
        sequence,
      });
      return;
    }
    const text = event.payload
      .map((item) => (item.conversational as { content?: { text?: string } } | undefined)?.content?.text)
      .filter((part): part is string => part !== undefined)
      .join('\n');
    if (text === '') return;
    const template = settings.strategyNamespaceTemplate ?? '/{actorId}/';
    const namespace = template.replaceAll('{actorId}', event.actorId).replaceAll('{sessionId}', event.sessionId).replaceAll('{memoryStrategyId}', strategyId);
    createRecord({ content: { text }, memoryStrategyId: strategyId, namespaces: [namespace] });
  }

  return {
    memoryId: settings.memoryId,
    indexedKeys,
    /** The control-plane status of the memory; UpdateMemory needs ACTIVE. */
    memoryStatus: settings.memoryStatus ?? 'ACTIVE',
    /**
     * A test lever: the most records one RetrieveMemoryRecords page holds whatever maxResults
     * asks, because maxResults is documented as a maximum, not a promise. Default none.
     */
    retrievePageLimit: undefined as number | undefined,
    records,
    events,
    jobs,
    /** Every event not extracted yet. */
    get pendingExtractionCount() {
      return pendingExtraction.length;
    },
    /** The response stored for an idempotency token, if the same call was made before. */
    replay(operation: string, clientToken: unknown): unknown {
      return typeof clientToken === 'string' ? idempotent.get(`${operation}:${clientToken}`) : undefined;
    },
    /** Remembers the response of an idempotent call. */
    remember(operation: string, clientToken: unknown, response: unknown): void {
      if (typeof clientToken === 'string') idempotent.set(`${operation}:${clientToken}`, response);
    },
    createRecord,
    /** One page of the records under a namespace prefix, in creation order. */
    page(namespace: string, filters: FakeMetadataFilter[], maxResults: number, after: number) {
      const matching = visible(namespace, filters).filter((record) => record.sequence > after);
      const page = matching.slice(0, maxResults);
      return { page, last: matching.length > maxResults ? page.at(-1)?.sequence : undefined };
    },
    /** The records under a namespace prefix that share a term with the query, best first. */
    search(namespace: string, filters: FakeMetadataFilter[], query: string, topK: number) {
      const queryTerms = [...new Set(tokenize(query))];
      return visible(namespace, filters)
        .map((record) => {
          const terms = new Set(tokenize(record.content.text));
          return { record, score: queryTerms.length === 0 ? 0 : queryTerms.filter((term) => terms.has(term)).length / queryTerms.length };
        })
        .filter((result) => result.score > 0)
        .sort((left, right) => right.score - left.score || left.record.sequence - right.record.sequence)
        .slice(0, topK);
    },
    /** Stores an event and queues it for the simulated strategy. */
    createEvent(input: Omit<FakeEvent, 'eventId' | 'memoryId' | 'sessionId'> & { sessionId?: string }): FakeEvent {
      const event: FakeEvent = {
        ...structuredClone(input),
        memoryId: settings.memoryId,
        sessionId: input.sessionId ?? `session-${randomBytes(6).toString('hex')}`,
        eventId: `${Date.now()}#${randomBytes(8).toString('hex')}`,
      };
      events.set(eventKey(event.actorId, event.sessionId, event.eventId), event);
      pendingExtraction.push({ event, failing: settings.isExtractionFailureInForce?.() ?? false });
      return event;
    },
    findEvent: (actorId: string, sessionId: string, eventId: string) => events.get(eventKey(actorId, sessionId, eventId)),
    deleteEvent: (actorId: string, sessionId: string, eventId: string) => events.delete(eventKey(actorId, sessionId, eventId)),
    /** Re-drives a failed job: it leaves the failed list and is extracted again on the next drain. */
    restartJob(jobId: string): boolean {
      const job = jobs.get(jobId);
      if (job === undefined) return false;
      jobs.delete(jobId);
      const [message] = job.messages.messagesList;
      const event = message === undefined ? undefined : events.get(eventKey(job.actorId, job.sessionId, message.eventId));
      if (event !== undefined) pendingExtraction.push({ event, failing: settings.isExtractionFailureInForce?.() ?? false, jobId });
      return true;
    },
    /** Runs the simulated strategy over every queued event: records for the good ones, FAILED jobs for the others. */
    drainExtraction(): void {
      const queued = pendingExtraction;
      pendingExtraction = [];
      for (const item of queued) extract(item);
    },
    /** Removes everything. */
    clear(): void {
      records.clear();
      events.clear();
      jobs.clear();
      idempotent.clear();
      pendingExtraction = [];
      sequence = 0;
      indexedKeys.clear();
      for (const { key, type } of settings.indexedKeys ?? []) indexedKeys.set(key, type);
    },
  };
}

/** The fake AgentCore Memory. */
export type AgentCoreFakeStore = ReturnType<typeof createAgentCoreFakeStore>;
