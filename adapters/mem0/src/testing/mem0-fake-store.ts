import type { Mem0FilterableMemory } from './mem0-fake-filters';

/**
 * The state of the fake mem0 platform (test-only): memories, events and profiles, with a
 * deterministic clock and ids. Extraction is asynchronous as on the platform: an
 * extracting add becomes a `PENDING` event; each read of the event moves it one step
 * (`RUNNING`, then `SUCCEEDED` or `FAILED`), and `drain()` finishes every event at once.
 */

/** A memory as the platform stores it (wire field names). */
export interface Mem0FakeMemory extends Mem0FilterableMemory {
  expiration_date: string | null;
  /** Insertion order, the tie-break of listings. */
  sequence: number;
}

/** An event as the platform stores it. */
export interface Mem0FakeEvent {
  id: string;
  event_type: 'ADD';
  status: 'PENDING' | 'RUNNING' | 'FAILED' | 'SUCCEEDED';
  payload: Record<string, unknown>;
  metadata: null;
  results: Array<{ id: string; memory: string; event: 'ADD' }>;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  latency: number | null;
  graph_status: null;
  error: string | null;
  /** Set when `extraction_failure` was in force at submission: the event ends FAILED. */
  failAtEnd: boolean;
}

/** One message of an add request. */
export interface Mem0FakeMessage {
  role: string;
  content: unknown;
}

/** An order of `getAll` listings. */
export type Mem0FakeListOrder = 'newest-first' | 'oldest-first' | 'unordered';

/** Settings of the fake store. */
export interface Mem0FakeStoreSettings {
  /**
   * How `getAll` orders memories. mem0 does not document an order (Get Memories,
   * docs.mem0.ai/api-reference/memory/get-memories), so the adapter must cope with each,
   * including none (`unordered`: a fixed order by id digest). Default `newest-first`.
   */
  listOrder?: Mem0FakeListOrder;
  /** How many memories a user needs before mem0 generates a profile. Default 1. */
  profileThreshold?: number;
  /** Whether the project has profiles enabled. Default true. */
  profilesEnabled?: boolean;
}

const clockStart = Date.UTC(2026, 0, 15, 17, 30, 0);

/** Formats a time as mem0 does in older responses: microseconds and a `-07:00` offset. */
function formatTime(microseconds: number): string {
  const milliseconds = Math.floor(microseconds / 1000) - 7 * 3600 * 1000;
  const iso = new Date(milliseconds).toISOString().slice(0, 19);
  return `${iso}.${String(microseconds % 1_000_000).padStart(6, '0')}-07:00`;
}

/** Splits text into the "facts" the fake extracts: its sentences. */
export function splitFacts(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** Creates the state of one fake platform. */
export function createMem0FakeStore(settings: Mem0FakeStoreSettings = {}) {
  const memories = new Map<string, Mem0FakeMemory>();
  const events = new Map<string, Mem0FakeEvent>();
  const generatedProfiles = new Map<string, { profile: Record<string, unknown>; updated_at: string; count: number }>();
  let sequence = 0;
  let microseconds = clockStart * 1000;
  const tick = (step = 250_123) => formatTime((microseconds += step));
  const nextId = () => `00000000-0000-4000-8000-${String((sequence += 1)).padStart(12, '0')}`;

  function store(fields: Omit<Mem0FakeMemory, 'id' | 'sequence' | 'created_at' | 'updated_at' | 'categories' | 'expiration_date'>, now: string): Mem0FakeMemory {
    const memory: Mem0FakeMemory = {
      ...fields,
      id: nextId(),
      metadata: fields.metadata === null ? null : structuredClone(fields.metadata),
      categories: [],
      expiration_date: null,
      created_at: now,
      updated_at: now,
      sequence,
    };
    memories.set(memory.id, memory);
    return memory;
  }

  function entityOf(payload: Record<string, unknown>, field: string): string | null {
    const value = payload[field];
    return typeof value === 'string' && value !== '' ? value : null;
  }

  function finish(event: Mem0FakeEvent): void {
    const now = tick();
    event.completed_at = now;
    event.updated_at = now;
    event.latency = 1834.5;
    if (event.failAtEnd) {
      event.status = 'FAILED';
      event.error = 'Memory extraction failed: the extraction model did not answer (injected fault).';
      return;
    }
    const { payload } = event;
    const metadata = (payload.metadata ?? null) as Record<string, unknown> | null;
    for (const message of (payload.messages ?? []) as Mem0FakeMessage[]) {
      if ((message.role !== 'user' && message.role !== 'assistant') || typeof message.content !== 'string') continue;
      for (const fact of splitFacts(message.content)) {
        // The documented trap: a fact keeps user_id (from a user message) or agent_id (from an assistant message), never both.
        const memory = store(
          {
            memory: fact,
            user_id: message.role === 'user' ? entityOf(payload, 'user_id') : null,
            agent_id: message.role === 'assistant' ? entityOf(payload, 'agent_id') : null,
            app_id: entityOf(payload, 'app_id'),
            run_id: entityOf(payload, 'run_id'),
            metadata,
          },
          now,
        );
        event.results.push({ id: memory.id, memory: fact, event: 'ADD' });
      }
    }
    event.status = 'SUCCEEDED';
  }

  function generateProfiles(): void {
    for (const userId of new Set([...memories.values()].map((memory) => memory.user_id))) {
      if (userId === null) continue;
      const facts = [...memories.values()].filter((memory) => memory.user_id === userId).map((memory) => memory.memory);
      if (facts.length < (settings.profileThreshold ?? 1)) continue;
      const previous = generatedProfiles.get(userId);
      generatedProfiles.set(userId, { profile: { preferences: facts }, updated_at: tick(), count: (previous?.count ?? 0) + 1 });
    }
  }

  function queue(payload: Record<string, unknown>, failAtEnd: boolean): Mem0FakeEvent {
    const now = tick(1);
    const event: Mem0FakeEvent = {
      id: nextId(),
      event_type: 'ADD',
      status: 'PENDING',
      payload: structuredClone(payload),
      metadata: null,
      results: [],
      created_at: now,
      updated_at: now,
      started_at: null,
      completed_at: null,
      latency: null,
      graph_status: null,
      error: null,
      failAtEnd,
    };
    events.set(event.id, event);
    return event;
  }

  function advance(event: Mem0FakeEvent): void {
    if (event.status === 'PENDING') {
      event.status = 'RUNNING';
      event.started_at = tick(1);
      event.updated_at = event.started_at;
    } else if (event.status === 'RUNNING') {
      finish(event);
    }
  }

  return {
    memories,
    events,
    /** Read on every request, so a test can change it between two pages of a walk. */
    listOrder: (settings.listOrder ?? 'newest-first') as Mem0FakeListOrder,
    /**
     * Stores messages verbatim (`infer: false`): one memory per user or assistant message,
     * with every entity id given. An exact repeat of a memory that holds the same four entity
     * ids (stored before, or earlier in the same request) is not stored again and is left out
     * of the results, so a response can hold fewer results than messages. Source: the
     * review of the platform behind issue 16 ("Direct import deduplicates exact repeats in the
     * same entity scope"); the Direct Import docs page (docs.mem0.ai/platform/features/direct-import)
     * says only that inference-time duplicate detection is skipped. Dedup keys on entity
     * ids, never on metadata.
     */
    addVerbatim(payload: Record<string, unknown>, messages: Mem0FakeMessage[]): Mem0FakeMemory[] {
      const now = tick();
      const sameEntities = (memory: Mem0FakeMemory) =>
        memory.user_id === entityOf(payload, 'user_id') &&
        memory.agent_id === entityOf(payload, 'agent_id') &&
        memory.app_id === entityOf(payload, 'app_id') &&
        memory.run_id === entityOf(payload, 'run_id');
      const isRepeat = (text: string) => [...memories.values()].some((memory) => memory.memory === text && sameEntities(memory));
      const stored = messages
        .filter((message) => typeof message.content === 'string' && message.role !== 'system')
        .map((message) =>
          isRepeat(message.content as string) ? undefined : store(
            {
              memory: message.content as string,
              user_id: entityOf(payload, 'user_id'),
              agent_id: entityOf(payload, 'agent_id'),
              app_id: entityOf(payload, 'app_id'),
              run_id: entityOf(payload, 'run_id'),
              metadata: (payload.metadata ?? null) as Record<string, unknown> | null,
            },
            now,
          ),
        )
        .filter((memory): memory is Mem0FakeMemory => memory !== undefined);
      const event = queue(payload, false);
      event.results = stored.map((memory) => ({ id: memory.id, memory: memory.memory, event: 'ADD' as const }));
      event.status = 'SUCCEEDED';
      event.started_at = now;
      event.completed_at = now;
      return stored;
    },
    /** Queues an extracting add and returns its event. */
    queue,
    /** Moves an event one step, as time passing between two polls would. */
    advance,
    /** Finishes every queued event and generates due profiles: what mem0's workers do in the background. */
    drain(): void {
      for (const event of events.values()) {
        if (event.status === 'PENDING') advance(event);
        if (event.status === 'RUNNING') finish(event);
      }
      if (settings.profilesEnabled !== false) generateProfiles();
    },
    /** The profile of a user entity, as `GET /v2/entities/user/{id}/profile/` answers. */
    profile(userId: string) {
      // An entity exists once a memory names it; before that the platform answers 404.
      if (![...memories.values()].some((memory) => memory.user_id === userId) && !generatedProfiles.has(userId)) return undefined;
      const base = { entity_type: 'user', entity_id: userId, error: null };
      if (settings.profilesEnabled === false) return { ...base, profile: {}, status: 'not_enabled', updated_at: null, generation_count: 0 };
      const generated = generatedProfiles.get(userId);
      if (generated !== undefined) {
        return { ...base, profile: generated.profile, status: 'succeeded', updated_at: generated.updated_at, generation_count: generated.count };
      }
      const count = [...memories.values()].filter((memory) => memory.user_id === userId).length;
      const status = count < (settings.profileThreshold ?? 1) ? 'insufficient_data' : 'pending';
      return { ...base, profile: {}, status, updated_at: null, generation_count: 0 };
    },
    /** Updates a memory in place, as `PUT /v1/memories/{id}/` does; metadata is replaced. */
    update(memory: Mem0FakeMemory, changes: { text?: string; metadata?: Record<string, unknown> }): void {
      if (changes.text !== undefined) memory.memory = changes.text;
      if (changes.metadata !== undefined) memory.metadata = structuredClone(changes.metadata);
      memory.updated_at = tick();
    },
    /** Forgets everything. */
    clear(): void {
      memories.clear();
      events.clear();
      generatedProfiles.clear();
    },
  };
}

/** The state of one fake platform. */
export type Mem0FakeStore = ReturnType<typeof createMem0FakeStore>;
