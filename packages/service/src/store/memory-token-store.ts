/** One bearer token as the store keeps it: its SHA-256, never the token. */
export interface MemoryTokenRow {
  /** `tok_` + 24 url-safe chars; a token imported from an old token file keeps its `tok_` + 16 hex. */
  id: string;
  /** SHA-256 hex of the whole token. */
  hash: string;
  /** Who the token speaks for. */
  role: 'operator' | 'admin' | 'agent';
  /** The rest of the grant as JSON (checked by the host on read). */
  grant: Record<string, unknown>;
  /** What the operator called it, if anything. */
  label: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, or null for a token that never expires. */
  expiresAt: string | null;
  /** ISO 8601, or null while the token is not revoked. */
  revokedAt: string | null;
}

/**
 * The token table of the service's store, for the host's bearer tokens. Every call reads or
 * writes the database itself, with no cache, so a revocation made by one process is seen by
 * every other process on the same database at its next read. Times are kept as instants and
 * read back in `Date.prototype.toISOString()` form (UTC, milliseconds).
 */
export interface MemoryTokenStore {
  /** Inserts a token; false (and nothing written) when a token with that id or hash exists. */
  insertToken(row: MemoryTokenRow): Promise<boolean>;
  /** The token with that hash, or undefined. */
  findTokenByHash(hash: string): Promise<MemoryTokenRow | undefined>;
  /** Every token, oldest first. */
  listTokens(): Promise<MemoryTokenRow[]>;
  /** Sets revokedAt; false when there is no such token or it was already revoked. */
  revokeToken(id: string, revokedAt: string): Promise<boolean>;
}

/** The roles a token may have, for a host that checks a row it reads. */
export const memoryTokenRoles: readonly MemoryTokenRow['role'][] = ['operator', 'admin', 'agent'];

/** The methods of {@link MemoryTokenStore}, for a host that checks a store it was given has the token table. */
export const memoryTokenStoreMethods: readonly (keyof MemoryTokenStore)[] = ['insertToken', 'findTokenByHash', 'listTokens', 'revokeToken'];
