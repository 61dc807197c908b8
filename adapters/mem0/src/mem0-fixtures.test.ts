import { readFileSync } from 'node:fs';
import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  mem0EventPageSchema,
  mem0EventSchema,
  mem0MemorySchema,
  mem0MessageSchema,
  mem0PageSchema,
  mem0ProfileSchema,
  mem0QueuedAddSchema,
  mem0SearchSchema,
  mem0StoredAddSchema,
} from './mem0-api-schemas';
import { createMem0Fake } from './testing/mem0-fake-server';

const fake = createMem0Fake();
setupTestServer(fake.handlers);
const headers = { authorization: `Token ${fake.apiKey}`, 'content-type': 'application/json' };

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** The key paths of a JSON value: objects by key, arrays by their first element, opaque values not descended into. */
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [] : shape(value[0], `${path}[]`);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = path === '' ? key : `${path}.${key}`;
    return ['metadata', 'payload', 'profile', 'structured_attributes', 'score_breakdown'].includes(key) ? [here] : [here, ...shape(child, here)];
  }).sort();
}

/** What the SDK does to a response: keys camel-cased, except the values of `metadata` and `profile`. */
function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), ['metadata', 'profile'].includes(key) ? child : camelize(child)]),
  );
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${fake.host}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return response.json();
}

const cases: Array<{ name: string; schema: z.ZodType; answer: () => Promise<unknown> }> = [
  { name: 'ping', schema: z.object({ status: z.literal('ok'), orgId: z.string(), projectId: z.string(), userEmail: z.string() }), answer: () => call('GET', '/v1/ping/') },
  { name: 'add-queued', schema: mem0QueuedAddSchema, answer: () => call('POST', '/v3/memories/add/', { messages: [{ role: 'user', content: 'I moved.' }], user_id: 'alice' }) },
  { name: 'add-verbatim', schema: mem0StoredAddSchema, answer: () => call('POST', '/v3/memories/add/', { messages: [{ role: 'user', content: 'I moved.' }], user_id: 'alice', infer: false }) },
  { name: 'search', schema: mem0SearchSchema, answer: () => call('POST', '/v3/memories/search/', { query: 'moved', filters: { user_id: 'alice' } }) },
  { name: 'get-all', schema: mem0PageSchema, answer: () => call('POST', '/v3/memories/?page=1&page_size=1', { filters: { user_id: 'alice' } }) },
  { name: 'memory', schema: mem0MemorySchema, answer: async () => call('GET', `/v1/memories/${[...fake.store.memories.keys()][0]}/`) },
  { name: 'event', schema: mem0EventSchema, answer: async () => { fake.drain(); return call('GET', `/v1/event/${[...fake.store.events.keys()][0]}/`); } },
  { name: 'events', schema: mem0EventPageSchema, answer: () => call('GET', '/v1/events/') },
  { name: 'profile', schema: mem0ProfileSchema, answer: () => call('GET', '/v2/entities/user/alice/profile/') },
  { name: 'delete', schema: mem0MessageSchema, answer: async () => call('DELETE', `/v1/memories/${[...fake.store.memories.keys()][0]}/`) },
  { name: 'batch-delete', schema: mem0MessageSchema, answer: async () => call('DELETE', '/v1/batch/', { memories: [...fake.store.memories.keys()].map((id) => ({ memory_id: id })) }) },
];

describe('the mem0 fake answers in the shapes of the mem0 API reference', () => {
  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_, entry) => {
    const documented = fixture(entry.name);
    const answered = await entry.answer();
    expect(shape(answered)).toEqual(shape(documented));
    expect(entry.schema.safeParse(camelize(documented)).success).toBe(true);
    expect(entry.schema.safeParse(camelize(answered)).success).toBe(true);
  });
});
