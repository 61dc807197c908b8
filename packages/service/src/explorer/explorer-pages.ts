import { InvalidCursorError, parseInput, type CursorCodec } from '@memplane/core';
import { z } from 'zod';
import type { MemoryStorePage, MemoryStorePageRequest } from '../store/memory-service-records';

/** A page as the explorer returns it: items and an opaque cursor for the next page. */
export interface MemoryExplorerPage<Entry> {
  /** The entries, newest first. */
  items: Entry[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

const pageRequestSchema = z.object({
  cursor: z.string().min(1).max(4096).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

/**
 * Reads one store page behind a signed cursor bound to the company, the listing and its filter,
 * so a cursor cannot be replayed against another company or another filter.
 */
export async function readPage<Entry>(
  codec: CursorCodec,
  binding: { companyId: string; listing: string; filter: unknown },
  request: { cursor?: string; limit?: number },
  read: (page: MemoryStorePageRequest) => Promise<MemoryStorePage<Entry>>,
): Promise<MemoryExplorerPage<Entry>> {
  const valid = parseInput(pageRequestSchema, { cursor: request.cursor, limit: request.limit }, 'page request');
  const cursorBinding = { scope: { companyId: binding.companyId }, listing: binding.listing, filter: binding.filter };
  let after: number | undefined;
  if (valid.cursor !== undefined) {
    const position = codec.decode(valid.cursor, cursorBinding);
    if (typeof position !== 'number' || !Number.isInteger(position)) throw new InvalidCursorError({ reason: 'malformed' });
    after = position;
  }
  const page = await read({ limit: valid.limit ?? 50, ...(after === undefined ? {} : { after }) });
  return {
    items: page.items,
    ...(page.nextAfter === undefined ? {} : { nextCursor: codec.encode(page.nextAfter, cursorBinding) }),
  };
}
