import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { tokenGrantFieldSchemas, type MemplaneTokenGrant } from './token-grant';
import type { MemoryTokenRow } from '@memplane/service/store';

/** What every token record keeps beside its grant: never the token, nor its hash. */
export interface MemplaneTokenBookkeeping {
  /** The token's id (`tok_…`), to list and revoke it. */
  id: string;
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it was issued (ISO 8601). */
  createdAt: string;
  /** When it stops working (ISO 8601); absent, it works until revoked. */
  expiresAt?: string;
  /** When it was revoked (ISO 8601); a revoked token is refused. */
  revokedAt?: string;
}

/** One issued token: what it acts as, and its bookkeeping. */
export type MemplaneTokenRecord = MemplaneTokenGrant & MemplaneTokenBookkeeping;

/** Token ids: `tok_` and 24 url-safe characters; tokens imported from the old files keep their `tok_` + 16 hex. */
export const tokenIdPattern = /^tok_[A-Za-z0-9_-]{16,24}$/;

const timestamp = z.iso.datetime({ offset: true });

// The row itself may carry more columns in a later store; what it grants is checked strictly below.
const rowSchema = z.object({
  id: z.string().regex(tokenIdPattern),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  role: z.enum(['operator', 'admin', 'agent']),
  // Passed through as it came, so the strict check below sees every own key (a record schema
  // would copy it, and a copied `__proto__` key would vanish into the copy's prototype).
  grant: z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
  label: z.string().max(200).nullable(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});

/** The SHA-256 (hex) of a token, the only form of it the store keeps. */
export function tokenHashOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether two hashes (hex) are equal, in time independent of where they differ. */
export function sameHash(left: string, right: string): boolean {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The record a row stands for, or undefined when the row is not a whole grant: a field of
 * another role, a field too many or missing, a malformed date or id. Such a row is never
 * guessed at, so a row edited in the database into a wider grant that is not a grant of its
 * role is refused.
 */
export function recordOfRow(row: unknown): MemplaneTokenRecord | undefined {
  const parsed = rowSchema.safeParse(row);
  if (!parsed.success) return undefined;
  const { id, role, grant, label, createdAt, expiresAt, revokedAt } = parsed.data;
  const fields = tokenGrantFieldSchemas[role].safeParse(grant);
  if (!fields.success) return undefined;
  return {
    ...fields.data,
    role,
    id,
    createdAt,
    ...(label === null ? {} : { label }),
    ...(expiresAt === null ? {} : { expiresAt }),
    ...(revokedAt === null ? {} : { revokedAt }),
  } as MemplaneTokenRecord;
}

/** The row of a new token: the grant's fields beside its role, as the store keeps them. */
export function rowOf(grant: MemplaneTokenGrant, bookkeeping: MemplaneTokenBookkeeping & { hash: string }): MemoryTokenRow {
  const { role, ...fields } = grant;
  return {
    id: bookkeeping.id,
    hash: bookkeeping.hash,
    role,
    grant: fields,
    label: bookkeeping.label ?? null,
    createdAt: bookkeeping.createdAt,
    expiresAt: bookkeeping.expiresAt ?? null,
    revokedAt: bookkeeping.revokedAt ?? null,
  };
}
