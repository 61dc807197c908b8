import { InvalidCursorError, type CursorBinding, type CursorCodec } from '@memplane/core';

/** A keyset position: the page continues after the item with this sequence. */
interface KeysetPosition {
  after: number;
}

/** What {@link readKeysetPage} needs. */
export interface KeysetPageRequest<Item extends { sequence: number }, Included extends Item> {
  /** Every item of the listing, where `all[sequence - 1]` has that sequence. */
  all: readonly Item[];
  /** Which items belong on the pages (scope, filter, not forgotten). */
  include: (item: Item) => item is Included;
  /** The cursor codec. */
  codec: CursorCodec;
  /** What the cursor is bound to. */
  binding: CursorBinding;
  /** The cursor of the previous page, if any. */
  cursor: string | undefined;
  /** The page size. */
  limit: number;
}

/**
 * Reads one page of a listing in ascending sequence. The cursor holds the last sequence
 * served, so items added or removed while a caller walks the pages never make another item
 * appear twice or go missing. It looks one item ahead, so the last page carries no cursor.
 * A malformed, tampered or foreign cursor throws `InvalidCursorError` from the codec.
 */
export function readKeysetPage<Item extends { sequence: number }, Included extends Item>(
  request: KeysetPageRequest<Item, Included>,
): { items: Included[]; nextCursor?: string } {
  const after = request.cursor === undefined ? 0 : decodePosition(request.codec, request.cursor, request.binding).after;
  const items: Included[] = [];
  for (let index = after; index < request.all.length; index += 1) {
    const item = request.all[index];
    if (item === undefined || !request.include(item)) continue;
    if (items.length === request.limit) {
      const last = items[items.length - 1] as Included;
      return { items, nextCursor: request.codec.encode({ after: last.sequence } satisfies KeysetPosition, request.binding) };
    }
    items.push(item);
  }
  return { items };
}

function decodePosition(codec: CursorCodec, cursor: string, binding: CursorBinding): KeysetPosition {
  const position = codec.decode(cursor, binding) as Partial<KeysetPosition> | null;
  const after = position?.after;
  if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) {
    throw new InvalidCursorError({ reason: 'malformed' });
  }
  return { after };
}
