import { HttpResponse } from 'msw';
import type { FakeDocument, FakeMemory } from './supermemory-fake-store';

/** Validation and response shapes of the fake Supermemory API (test-only). */

export const tagPattern = /^[A-Za-z0-9_-]{1,100}$/;
export const metadataKeyPattern = /^[A-Za-z0-9_.-]{1,64}$/;

export const error = (status: number, message: string) => HttpResponse.json({ error: message, details: message }, { status });

export function metadataProblem(metadata: unknown): string | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return 'metadata must be an object';
  for (const [key, value] of Object.entries(metadata)) {
    if (!metadataKeyPattern.test(key)) return `invalid metadata key ${key}`;
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    const strings = Array.isArray(value) && value.every((item) => typeof item === 'string');
    if (!scalar && !strings) return `metadata values must be strings, numbers, booleans or string arrays (${key})`;
  }
  return undefined;
}

export function toDocumentResponse(document: FakeDocument, includeContent: boolean) {
  return {
    id: document.id,
    connectionId: null,
    ...(includeContent ? { content: document.content } : {}),
    createdAt: document.createdAt,
    customId: document.customId,
    filepath: null,
    metadata: document.metadata,
    ogImage: null,
    raw: null,
    source: null,
    spatialPoint: null,
    status: document.status,
    summary: null,
    taskType: 'memory',
    title: null,
    type: 'text',
    updatedAt: document.updatedAt,
    containerTags: document.containerTags,
    url: null,
  };
}

export function toMemoryEntry(memory: FakeMemory) {
  return {
    id: memory.id,
    memory: memory.memory,
    // An entry with no metadata of its own (extracted from a document) has no `metadata` key:
    // nothing documents that every entry carries one.
    ...(Object.keys(memory.metadata).length === 0 ? {} : { metadata: memory.metadata }),
    version: memory.version,
    isLatest: memory.isLatest,
    isForgotten: memory.isForgotten,
    isStatic: memory.isStatic,
    isInference: false,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
    sourceCount: memory.documentIds.length,
    documentIds: memory.documentIds,
  };
}

export interface Paging {
  page: number;
  limit: number;
}

export function readPaging(body: Record<string, unknown>, maximumLimit: number, defaultLimit: number): Paging | string {
  const page = Number(body.page ?? 1);
  const limit = Number(body.limit ?? defaultLimit);
  if (!Number.isInteger(page) || page < 1) return 'page must be a positive integer';
  if (!Number.isInteger(limit) || limit < 1 || limit > maximumLimit) return `limit must be 1 to ${maximumLimit}`;
  return { page, limit };
}

export function paginate<Item>(items: Item[], paging: Paging) {
  const start = (paging.page - 1) * paging.limit;
  return {
    slice: items.slice(start, start + paging.limit),
    pagination: { currentPage: paging.page, limit: paging.limit, totalItems: items.length, totalPages: Math.ceil(items.length / paging.limit) },
  };
}

export function sortByCreated<Item extends { createdAt: string }>(items: Item[], order: unknown): Item[] {
  const sorted = [...items].sort((left, right) => (left.createdAt < right.createdAt ? -1 : left.createdAt > right.createdAt ? 1 : 0));
  return order === 'asc' ? sorted : sorted.reverse();
}

export async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = (await request.json()) as unknown;
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

