import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MemoryConfigurationError, MemoryConflictError, parseInput } from '@memplane/core';
import { z } from 'zod';

/** What every record of a {@link HashedTokenFile} keeps beside its grant: never the token itself. */
export interface HashedTokenRecordFields {
  /** The token's id (`tok_…`), to list and revoke it. */
  id: string;
  /** `sha256:<hex>` of the token. */
  hash: string;
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it was issued (ISO 8601). */
  createdAt: string;
  /** When it stops working (ISO 8601); absent, it works until revoked. */
  expiresAt?: string;
  /** When it was revoked (ISO 8601); a revoked token is refused. */
  revokedAt?: string;
}

/** One issued token: its grant (what it acts as) and the bookkeeping fields. */
export type HashedTokenRecord<Grant> = Grant & HashedTokenRecordFields;

/** Bookkeeping of one issue: a label and an expiry. */
export interface HashedTokenIssueOptions {
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it stops working. Default: never (revoke it instead). */
  expiresAt?: Date;
}

/** Bearer tokens kept hashed in one JSON file (mode 0600), each mapped to a grant. */
export interface HashedTokenFile<Grant> {
  /** Issues a token. The token itself is returned once, here, and never stored. */
  issue(grant: Grant, options?: HashedTokenIssueOptions): Promise<{ token: string; record: HashedTokenRecord<Grant> }>;
  /** Revokes a token by id; false when there is no such token. */
  revoke(tokenId: string): Promise<boolean>;
  /** Every issued token, revoked ones included. */
  list(): Promise<Array<HashedTokenRecord<Grant>>>;
  /** The record of a token, or undefined for an unknown, revoked or expired one. Sees changes to the file at once. */
  verify(token: string): Promise<HashedTokenRecord<Grant> | undefined>;
}

/** How a token file is laid out. */
export interface HashedTokenFileSettings<Shape extends z.ZodRawShape> {
  /** The grant fields each record carries (company, agent, role...), checked on issue and on every read. */
  grant: z.ZodObject<Shape>;
  /** The prefix of issued tokens (`mpt_`); a token without it is refused before any lookup. */
  tokenPrefix: string;
  /** The clock. Default: the system's. */
  now?: () => Date;
}

const bookkeepingShape = {
  id: z.string().regex(/^tok_[0-9a-f]{16}$/),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  label: z.string().max(200).optional(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().optional(),
  revokedAt: z.iso.datetime().optional(),
};

/** The errno code of a failed file call (`EACCES`, `EISDIR`), or its message. */
const errorCodeOf = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? String(error);

const hashOf = (token: string) => `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;

/**
 * Opens (or, on the first issue, creates) a token file at `path`. Writers take a lock file and
 * replace the file atomically after an fsync; readers cache it by mtime and size, so a token
 * revoked by another process is refused at its next use.
 *
 * @deprecated The format of the token files before the token store: the host reads it to import
 * them (`importTokenFiles`), and it leaves the public API once `memplane serve` and
 * `memplane-mcp` keep their tokens in the token store (`openMemplaneHost(...).tokens`).
 */
export function openHashedTokenFile<Shape extends z.ZodRawShape>(
  path: string,
  settings: HashedTokenFileSettings<Shape>,
): HashedTokenFile<z.output<z.ZodObject<Shape>>> {
  type Record = HashedTokenRecord<z.output<z.ZodObject<Shape>>>;
  const now = settings.now ?? (() => new Date());
  const recordSchema = z.strictObject({ ...settings.grant.shape, ...bookkeepingShape });
  const fileSchema = z.strictObject({ version: z.literal(1), tokens: z.array(recordSchema) });
  let cache: { mtimeMs: number; size: number; byHash: Map<string, Record> } | undefined;

  async function read(): Promise<Record[]> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new MemoryConfigurationError({ message: `The token file ${path} cannot be read (${errorCodeOf(cause)})`, cause });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      // A damaged token file refuses every token rather than guessing which still hold.
      throw new MemoryConfigurationError({ message: `The token file ${path} is damaged: it is not JSON (${(cause as Error).message})`, cause });
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? 'the file' : issue.path.join('.');
      throw new MemoryConfigurationError({ message: `The token file ${path} is damaged: ${where} ${issue?.message ?? 'is not a token file'}`, cause: parsed.error });
    }
    return parsed.data.tokens as Record[];
  }

  // Writers take a lock file, so two `token issue` or `token revoke` commands never lose each other's change.
  async function update<Result>(change: (tokens: Record[]) => Result): Promise<Result> {
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
    async issue(grant, options = {}) {
      const token = `${settings.tokenPrefix}${randomBytes(32).toString('base64url')}`;
      const record = parseInput(
        recordSchema,
        {
          id: `tok_${randomBytes(8).toString('hex')}`,
          hash: hashOf(token),
          ...grant,
          ...(options.label === undefined ? {} : { label: options.label }),
          createdAt: now().toISOString(),
          ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt.toISOString() }),
        },
        'token grant',
      ) as Record;
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
      if (typeof token !== 'string' || !token.startsWith(settings.tokenPrefix) || token.length > 200) return undefined;
      let stats;
      try {
        stats = await stat(path);
      } catch (cause) {
        // No file yet: no token was ever issued. Anything else (a folder that cannot be searched) is damage to report.
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new MemoryConfigurationError({ message: `The token file ${path} cannot be read (${errorCodeOf(cause)})`, cause });
      }
      if (cache === undefined || cache.mtimeMs !== stats.mtimeMs || cache.size !== stats.size) {
        cache = { mtimeMs: stats.mtimeMs, size: stats.size, byHash: new Map((await read()).map((record) => [record.hash, record])) };
      }
      // Looking up the hash, not the token, keeps the comparison free of timing on the secret.
      const record = cache.byHash.get(hashOf(token));
      if (record === undefined || record.revokedAt !== undefined) return undefined;
      if (record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now().getTime()) return undefined;
      return record;
    },
  };
}
