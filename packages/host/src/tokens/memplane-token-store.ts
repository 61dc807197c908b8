import { randomBytes } from 'node:crypto';
import { MemoryConflictError, MemoryValidationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import { tokenGrantSchema, type MemplaneTokenGrant } from './token-grant';
import { recordOfRow, rowOf, sameHash, tokenHashOf, tokenIdPattern, type MemplaneTokenRecord } from './token-row';
import type { MemoryTokenStore } from '@memplane/service/store';

/** The prefix of every token the host issues, so a leaked one is recognised (and scrubbed) at a glance. */
export const tokenPrefix = 'mpk_';

/**
 * Prefixes of tokens issued before the token store by `memplane serve` (`mps_`) and
 * `memplane-mcp` (`mpt_`): their hashes are imported from the old token files, so they keep working.
 */
export const importedTokenPrefixes = ['mps_', 'mpt_'] as const;

// A token is a prefix and 32 random bytes in base64url; anything else is refused before any lookup.
const tokenPattern = /^mp[kst]_[A-Za-z0-9_-]{43}$/;

/** A token lives a century at most: a later expiry is a typo. */
const maximumLifetimeMs = 36_500 * 86_400_000;

/** Bookkeeping of one issue: a label and an expiry. */
export interface MemplaneTokenIssueOptions {
  /** A note for people: who or what holds the token. At most 200 characters. */
  label?: string;
  /** When it stops working; in the future, at most a century ahead. Default: never (revoke it instead). */
  expiresAt?: Date;
}

/**
 * The bearer tokens of a host, kept hashed in the service's database: one store for
 * `memplane serve`, `memplane-mcp` and every other process on the same database.
 */
export interface MemplaneTokenStore {
  /** Issues a token. The token itself is returned once, here, and never stored: only its SHA-256 is. */
  issue(grant: MemplaneTokenGrant, options?: MemplaneTokenIssueOptions): Promise<{ token: string; record: MemplaneTokenRecord }>;
  /** Every issued token that is a whole grant, revoked and expired ones included, oldest first. */
  list(): Promise<MemplaneTokenRecord[]>;
  /** Revokes a token by id: true when it is revoked now (or already was), false when there is no such token. */
  revoke(tokenId: string): Promise<boolean>;
  /**
   * The record of a live token, or undefined: unknown, malformed, revoked, expired, or a row that
   * is not a whole grant. Reads the database on every call (nothing is cached), so a revocation
   * by any process is seen at the next call. A store that fails throws; nothing is guessed.
   */
  verify(token: string): Promise<MemplaneTokenRecord | undefined>;
}

/** Settings of {@link createMemplaneTokenStore}. */
export interface MemplaneTokenStoreSettings {
  /** The clock of issue, expiry and revocation. Default: the system's. */
  now?: () => Date;
}

const issueOptionsSchema = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  expiresAt: z.date().optional(),
});

/** The token store over the token table of a service store (`insertToken`, `findTokenByHash`, `listTokens`, `revokeToken`). */
export function createMemplaneTokenStore(store: MemoryTokenStore, settings: MemplaneTokenStoreSettings = {}): MemplaneTokenStore {
  const now = settings.now ?? (() => new Date());

  async function issue(grant: MemplaneTokenGrant, options: MemplaneTokenIssueOptions = {}) {
    const valid = parseInput(tokenGrantSchema, grant, 'token grant') as MemplaneTokenGrant;
    const { label, expiresAt } = parseInput(issueOptionsSchema, options, 'token options');
    const issuedAt = now();
    if (expiresAt !== undefined && !(expiresAt.getTime() > issuedAt.getTime() && expiresAt.getTime() <= issuedAt.getTime() + maximumLifetimeMs)) {
      throw new MemoryValidationError({ target: 'token options', issues: [{ path: 'expiresAt', message: 'must be a date in the future, at most a century ahead' }] });
    }
    const token = `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
    const bookkeeping = {
      id: `tok_${randomBytes(18).toString('base64url')}`,
      hash: tokenHashOf(token),
      createdAt: issuedAt.toISOString(),
      ...(label === undefined ? {} : { label }),
      ...(expiresAt === undefined ? {} : { expiresAt: expiresAt.toISOString() }),
    };
    const row = rowOf(valid, bookkeeping);
    // 144 random bits of id and 256 of token: a clash means a broken random source, never to be papered over.
    if (!(await store.insertToken(row))) throw new MemoryConflictError({ message: `A token with id ${row.id} or the same hash exists already` });
    return { token, record: recordOfRow(row) as MemplaneTokenRecord };
  }

  async function list(): Promise<MemplaneTokenRecord[]> {
    return (await store.listTokens()).map(recordOfRow).filter((record): record is MemplaneTokenRecord => record !== undefined);
  }

  async function revoke(tokenId: string): Promise<boolean> {
    if (typeof tokenId !== 'string' || !tokenIdPattern.test(tokenId)) return false;
    if (await store.revokeToken(tokenId, now().toISOString())) return true;
    // The store answers false for an unknown token and for one revoked before: tell them apart.
    return (await store.listTokens()).some((row) => row.id === tokenId && row.revokedAt !== null);
  }

  async function verify(token: string): Promise<MemplaneTokenRecord | undefined> {
    if (typeof token !== 'string' || !tokenPattern.test(token)) return undefined;
    const hash = tokenHashOf(token);
    const row = await store.findTokenByHash(hash);
    // Looking up the hash, not the token, keeps the lookup free of timing on the secret; the
    // row's own hash is compared again so a store that matched loosely grants nothing.
    if (row === undefined || typeof row.hash !== 'string' || !sameHash(row.hash, hash)) return undefined;
    const record = recordOfRow(row);
    if (record === undefined || record.revokedAt !== undefined) return undefined;
    if (record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now().getTime()) return undefined;
    return record;
  }

  return { issue, list, revoke, verify };
}
