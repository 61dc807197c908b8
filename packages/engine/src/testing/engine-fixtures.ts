import { z } from 'zod';

/** A two-field scope schema with `org` as the boundary, for tests. */
export const orgProjectScope = z.object({ org: z.string().min(1).max(64), project: z.string().min(1).max(64) });

/** A clock that moves one second per reading, from a fixed start. */
export function steppingClock(start = '2026-01-01T00:00:00.000Z'): () => Date {
  let at = Date.parse(start);
  return () => {
    at += 1000;
    return new Date(at);
  };
}
