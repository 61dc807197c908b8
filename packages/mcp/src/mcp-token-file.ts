import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { identifierSchema, MemoryConfigurationError, MemoryConflictError, parseInput } from '@memplane/core';
import { z } from 'zod';
import type { McpBoundScope } from './mcp-bound-scope';

/** One issued bearer token, as the token file keeps it: its SHA-256, never the token. */
export interface McpTokenRecord {
  /** The token's id (`tok_…`), to list and revoke it. */
  id: string;
  /** `sha256:<hex>` of the token. */
  hash: string;
  /** The company the token acts in. */
  companyId: string;
  /** The agent the token acts as. */
  agentId: string;
  /** The project it is bound to, if any. */
  projectId?: string;
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it was issued (ISO 8601). */
  createdAt: string;
  /** When it stops working (ISO 8601); absent, it works until revoked. */
  expiresAt?: string;
  /** When it was revoked (ISO 8601); a revoked token is refused. */
  revokedAt?: string;
}

const recordSchema = z.strictObject({
  id: z.string().regex(/^tok_[0-9a-f]{16}$/),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  companyId: identifierSchema,
  agentId: identifierSchema,
  projectId: identifierSchema.optional(),
  label: z.string().max(200).optional(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().optional(),
  revokedAt: z.iso.datetime().optional(),
});
const fileSchema = z.strictObject({ version: z.literal(1), tokens: z.array(recordSchema) });

/** What {@link McpTokenFile.issue} needs: who the token acts as. */
export interface McpTokenGrant {
  /** The company the token acts in. */
  companyId: string;
  /** The agent the token acts as. */
  agentId: string;
  /** The project it is bound to: notes record it, and reads may narrow only to it. */
  projectId?: string;
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it stops working. Default: never (revoke it instead). */
  expiresAt?: Date;
}

/** The bearer tokens of the HTTP transport, kept hashed in one JSON file (mode 0600). */
export interface McpTokenFile {
  /** Issues a token. The token itself is returned once, here, and never stored. */
  issue(grant: McpTokenGrant): Promise<{ token: string; record: McpTokenRecord }>;
  /** Revokes a token by id; false when there is no such token. */
  revoke(tokenId: string): Promise<boolean>;
  /** Every issued token, revoked ones included. */
  list(): Promise<McpTokenRecord[]>;
  /** The scope a token is bound to, or undefined for an unknown, revoked or expired token. Sees changes to the file at once. */
  verify(token: string): Promise<(McpBoundScope & { tokenId: string }) | undefined>;
}

/** The default token file name inside the data folder. */
export const tokenFileName = 'mcp-tokens.json';

const hashOf = (token: string) => `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;

/** Opens (or, on the first issue, creates) the token file at `path`. */
export function openMcpTokenFile(path: string, options: { now?: () => Date } = {}): McpTokenFile {
  const now = options.now ?? (() => new Date());
  let cache: { mtimeMs: number; size: number; byHash: Map<string, McpTokenRecord> } | undefined;

  async function read(): Promise<McpTokenRecord[]> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new MemoryConfigurationError({ message: `The token file ${path} cannot be read`, cause });
    }
    try {
      return (parseInput(fileSchema, JSON.parse(text), 'token file') as { tokens: McpTokenRecord[] }).tokens;
    } catch (cause) {
      // A damaged token file refuses every token rather than guessing which still hold.
      throw new MemoryConfigurationError({ message: `The token file ${path} is damaged`, cause });
    }
  }

  // Writers take a lock file, so two `token issue` or `token revoke` commands never lose each other's change.
  async function update<Result>(change: (tokens: McpTokenRecord[]) => Result): Promise<Result> {
    const lockPath = `${path}.lock`;
    let lock;
    try {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      lock = await open(lockPath, 'wx', 0o600);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new MemoryConflictError({ message: `The token file is being changed by another process (${lockPath} exists; remove it if no process holds it)`, cause });
      }
      throw new MemoryConfigurationError({ message: `The token file ${path} cannot be written`, cause });
    }
    try {
      const tokens = await read();
      const result = change(tokens);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`, { mode: 0o600 });
      const handle = await open(temporary, 'r');
      await handle.sync();
      await handle.close();
      await rename(temporary, path);
      return result;
    } finally {
      await lock.close();
      await unlink(lockPath);
    }
  }

  return {
    async issue(grant) {
      const token = `mpt_${randomBytes(32).toString('base64url')}`;
      const record: McpTokenRecord = {
        id: `tok_${randomBytes(8).toString('hex')}`,
        hash: hashOf(token),
        companyId: grant.companyId,
        agentId: grant.agentId,
        ...(grant.projectId === undefined ? {} : { projectId: grant.projectId }),
        ...(grant.label === undefined ? {} : { label: grant.label }),
        createdAt: now().toISOString(),
        ...(grant.expiresAt === undefined ? {} : { expiresAt: grant.expiresAt.toISOString() }),
      };
      parseInput(recordSchema, record, 'token grant');
      await update((tokens) => tokens.push(record));
      return { token, record };
    },
    async revoke(tokenId) {
      return update((tokens) => {
        const record = tokens.find((entry) => entry.id === tokenId);
        if (record === undefined) return false;
        record.revokedAt ??= now().toISOString();
        return true;
      });
    },
    list: read,
    async verify(token) {
      if (typeof token !== 'string' || !token.startsWith('mpt_') || token.length > 200) return undefined;
      let stats;
      try {
        stats = await stat(path);
      } catch {
        return undefined;
      }
      if (cache === undefined || cache.mtimeMs !== stats.mtimeMs || cache.size !== stats.size) {
        cache = { mtimeMs: stats.mtimeMs, size: stats.size, byHash: new Map((await read()).map((record) => [record.hash, record])) };
      }
      // Looking up the hash, not the token, keeps the comparison free of timing on the secret.
      const record = cache.byHash.get(hashOf(token));
      if (record === undefined || record.revokedAt !== undefined) return undefined;
      if (record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now().getTime()) return undefined;
      return {
        tokenId: record.id,
        companyId: record.companyId,
        agentId: record.agentId,
        ...(record.projectId === undefined ? {} : { projectId: record.projectId }),
      };
    },
  };
}
