import { parseInput } from '@memplane/core';
import { z } from 'zod';
import { memoryTokenRoles, type MemoryTokenRow } from '../memory-token-store';
import { optionalTime, time, type StoreRow, type StoreRowCodec } from './store-row-codec';

// Times are normalised to one form on the way in: SQLite compares the text, so "oldest first"
// holds only if every stored time has the same shape; Postgres then returns what SQLite does.
const instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

const tokenRowSchema = z.strictObject({
  // New ids, or the ids of the token files the host imports (tok_ and 16 hex), kept so an operator revokes by the id they know.
  id: z.string().regex(/^tok_(?:[A-Za-z0-9_-]{24}|[0-9a-f]{16})$/, 'must be tok_ and 24 url-safe characters (or 16 hex, the id of an imported token)'),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be the SHA-256 of the token in lower-case hex'),
  role: z.enum(memoryTokenRoles as [MemoryTokenRow['role'], ...MemoryTokenRow['role'][]]),
  grant: z.record(z.string(), z.unknown()),
  label: z.string().max(1000).regex(/^[^\u0000]*$/, 'must not contain NUL').nullable(),
  createdAt: instant,
  expiresAt: instant.nullable(),
  revokedAt: instant.nullable(),
});

/** A token row checked at the store's boundary (the host writes it directly), its times normalised. */
export function parseTokenRow(row: unknown): MemoryTokenRow {
  return parseInput(tokenRowSchema, row, 'token', 'row');
}

/** A revocation time checked and normalised like the row's. */
export function parseRevokedAt(value: unknown): string {
  return parseInput(instant, value, 'token revocation', 'revokedAt');
}

/** A token id or hash to look up: any string (one that matches nothing finds nothing). */
export function parseTokenKey(value: unknown, field: 'id' | 'hash'): string {
  return parseInput(z.string().max(200), value, 'token lookup', field);
}

/** The columns of `memory_tokens`, in insert order. */
export const tokenColumnList = 'id, hash, role, grant_json, label, created_at, expires_at, revoked_at';

/** The values of a checked row, in {@link tokenColumnList} order (the grant as JSON text). */
export function tokenValues(row: MemoryTokenRow): unknown[] {
  return [row.id, row.hash, row.role, JSON.stringify(row.grant), row.label, row.createdAt, row.expiresAt, row.revokedAt];
}

/** A stored row as the store returns it. */
export function rowToToken(row: StoreRow, codec: StoreRowCodec): MemoryTokenRow {
  return {
    id: String(row.id),
    hash: String(row.hash),
    role: row.role as MemoryTokenRow['role'],
    grant: codec.readJson(row.grant_json) as Record<string, unknown>,
    label: row.label === null || row.label === undefined ? null : String(row.label),
    createdAt: time(row.created_at),
    expiresAt: optionalTime(row.expires_at) ?? null,
    revokedAt: optionalTime(row.revoked_at) ?? null,
  };
}
