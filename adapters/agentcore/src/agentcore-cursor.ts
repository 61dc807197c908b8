import { InvalidCursorError, type CursorBinding, type CursorCodec } from '@memplane/core';
import { z } from 'zod';

const positionSchema = z.strictObject({ nextToken: z.string().min(1) });

/**
 * The AgentCore `nextToken` inside a signed core cursor bound to the scope, the listing and
 * its filter, so a cursor that was tampered with, or reused with another scope or filter, is
 * refused before any call.
 */
export function encodeNextToken(cursors: CursorCodec, nextToken: string, binding: CursorBinding): string {
  return cursors.encode({ nextToken }, binding);
}

/** The AgentCore `nextToken` of a cursor, or `InvalidCursorError`. */
export function decodeNextToken(cursors: CursorCodec, cursor: string, binding: CursorBinding): string {
  const position = positionSchema.safeParse(cursors.decode(cursor, binding));
  if (!position.success) throw new InvalidCursorError({ reason: 'malformed', cause: position.error });
  return position.data.nextToken;
}
