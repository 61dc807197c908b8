// The token table of the service's store (`MemoryTokenStore` of `@memplane/service/store`).
// Until that subpath lands, its contract is spelled here exactly as the plan fixes it.

/** One bearer token as the store keeps it: its SHA-256, never the token. */
export interface MemoryTokenRow {
  id: string;
  hash: string;
  role: 'operator' | 'admin' | 'agent';
  grant: Record<string, unknown>;
  label: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** The token methods of a `MemoryServiceStore`. */
export interface MemoryTokenStore {
  insertToken(row: MemoryTokenRow): Promise<boolean>;
  findTokenByHash(hash: string): Promise<MemoryTokenRow | undefined>;
  listTokens(): Promise<MemoryTokenRow[]>;
  revokeToken(id: string, revokedAt: string): Promise<boolean>;
}
