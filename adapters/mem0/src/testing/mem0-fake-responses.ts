import type { Mem0FakeEvent, Mem0FakeMemory } from './mem0-fake-store';

/**
 * The response shapes of the fake, field for field as the mem0 API reference documents
 * them (see `__fixtures__/` and the README's fixture table). Test-only.
 */

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function structuredAttributes(createdAt: string) {
  const date = new Date(createdAt);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), day_of_week: weekdays[date.getUTCDay()] };
}

/** A memory as `POST /v3/memories/` (getAll) lists it: the run is called `session_id`. */
export function listedMemory(memory: Mem0FakeMemory) {
  return {
    id: memory.id,
    memory: memory.memory,
    user_id: memory.user_id,
    agent_id: memory.agent_id,
    app_id: memory.app_id,
    session_id: memory.run_id,
    metadata: memory.metadata,
    categories: memory.categories,
    structured_attributes: structuredAttributes(memory.created_at),
    replaced_by: null,
    synthesized: false,
    expiration_date: memory.expiration_date,
    created_at: memory.created_at,
    updated_at: memory.updated_at,
  };
}

/** A memory as `GET`/`PUT /v1/memories/{id}/` return it. */
export function detailedMemory(memory: Mem0FakeMemory) {
  return { ...listedMemory(memory), lifecycle_state: 'active' };
}

/** A memory as `POST /v3/memories/search/` returns it: the run is called `run_id`, with a score. */
export function searchedMemory(memory: Mem0FakeMemory, score: { total: number; semantic: number; bm25: number; entity: number }) {
  return {
    id: memory.id,
    memory: memory.memory,
    user_id: memory.user_id,
    agent_id: memory.agent_id,
    app_id: memory.app_id,
    run_id: memory.run_id,
    score: score.total,
    score_breakdown: { semantic: score.semantic, bm25: score.bm25, entity: score.entity },
    metadata: memory.metadata,
    categories: memory.categories,
    expiration_date: memory.expiration_date,
    created_at: memory.created_at,
    updated_at: memory.updated_at,
  };
}

/** An event as `GET /v1/event/{id}/` returns it. */
export function eventBody(event: Mem0FakeEvent, payloadEcho: Mem0FakePayloadEcho = 'full') {
  const { failAtEnd: _internal, ...body } = event;
  const copy = structuredClone(body);
  // Get Event (docs.mem0.ai/api-reference/events/get-event) documents `payload` only as
  // "the original payload": whether it echoes app_id, metadata and messages is not said.
  if (payloadEcho === 'none') copy.payload = {};
  if (payloadEcho === 'messages-only') copy.payload = { messages: copy.payload.messages };
  return copy;
}

/** How much of the original add request the fake's events echo in `payload`. */
export type Mem0FakePayloadEcho = 'full' | 'messages-only' | 'none';
