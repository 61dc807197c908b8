import { lstat, rename } from 'node:fs/promises';
import { basename } from 'node:path';
import { identifierSchema, MemoryConfigurationError, MemoryError } from '@memplane/core';
import { z } from 'zod';
import type { MemplaneHostLog } from '../host-warning';
import { openHashedTokenFile, type HashedTokenRecord } from './hashed-token-file';
import { tokenGrantSchema, type MemplaneTokenGrant } from './token-grant';
import { rowOf } from './token-row';
import type { MemoryTokenRow, MemoryTokenStore } from '@memplane/service/store';

/** The token file `memplane-mcp` kept in the data folder before the token store. */
export const mcpTokenFileName = 'mcp-tokens.json';

/** The token file `memplane serve` kept in the data folder before the token store. */
export const serverTokenFileName = 'server-tokens.json';

/** What became of one token file found on open. */
export interface TokenFileImport {
  /** The file as it was found. */
  path: string;
  /** Tokens written into the store now. */
  imported: number;
  /** Tokens the store held already (an earlier open imported them and stopped before the rename). */
  alreadyPresent: number;
  /** Where the file was renamed to, or undefined when the rename failed (a warning says why). */
  renamedTo: string | undefined;
}

// Both old formats in one shape: a server record names its role, an MCP record is an agent without one.
const legacyGrant = z.strictObject({
  role: z.enum(['operator', 'admin', 'agent']).optional(),
  operatorId: identifierSchema.optional(),
  companyIds: z.array(identifierSchema).max(10_000).optional(),
  companyId: identifierSchema.optional(),
  userId: identifierSchema.optional(),
  agentId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  actAsAgents: z.literal(true).optional(),
  requestsPerMinute: z.number().int().min(1).max(1_000_000).optional(),
});

type LegacyRecord = HashedTokenRecord<z.output<typeof legacyGrant>>;

/** The row of one old record, or a message saying why it is not a whole grant. */
function rowOfLegacy(record: LegacyRecord): MemoryTokenRow | string {
  const { id, hash, label, createdAt, expiresAt, revokedAt, ...fields } = record;
  const grant = tokenGrantSchema.safeParse(fields.role === undefined ? { ...fields, role: 'agent' } : fields);
  if (!grant.success) return `token ${id} is not a whole grant (${grant.error.issues[0]?.path.join('.') || 'grant'}: ${grant.error.issues[0]?.message ?? 'invalid'})`;
  return rowOf(grant.data as MemplaneTokenGrant, {
    id,
    hash: hash.slice('sha256:'.length),
    createdAt,
    ...(label === undefined ? {} : { label }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(revokedAt === undefined ? {} : { revokedAt }),
  });
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

/** `<path>.imported`, or `<path>.imported.<n>` when an earlier import left that name taken. */
async function asideName(path: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const candidate = attempt === 0 ? `${path}.imported` : `${path}.imported.${attempt}`;
    try {
      await lstat(candidate);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return candidate;
      throw error;
    }
  }
}

/** The rows of a token file, or why it is damaged (a message naming the file). */
async function readRows(path: string): Promise<MemoryTokenRow[] | { damage: string; cause: unknown }> {
  let records: LegacyRecord[];
  try {
    // The prefix is not used: the file is only listed, never asked to verify a token.
    records = await openHashedTokenFile(path, { grant: legacyGrant, tokenPrefix: 'mp?_' }).list();
  } catch (error) {
    return { damage: MemoryError.isInstance(error) ? error.message : String(error), cause: error };
  }
  const rows = records.map(rowOfLegacy);
  const broken = rows.find((row): row is string => typeof row === 'string');
  if (broken !== undefined) return { damage: `The token file ${path} is damaged: ${broken}`, cause: new MemoryConfigurationError({ message: broken }) };
  return rows as MemoryTokenRow[];
}

/** Inserts the rows the store lacks, and applies the revocations of those it holds. */
async function insertRows(store: MemoryTokenStore, rows: readonly MemoryTokenRow[]): Promise<{ imported: number; alreadyPresent: number }> {
  let imported = 0;
  let alreadyPresent = 0;
  for (const row of rows) {
    if (await store.insertToken(row)) {
      imported += 1;
      continue;
    }
    alreadyPresent += 1;
    // Imported before a crash, then revoked in the file by a process of the old version: keep the revocation.
    if (row.revokedAt !== null) await store.revokeToken(row.id, row.revokedAt);
  }
  return { imported, alreadyPresent };
}

/**
 * Imports old token files (`mcp-tokens.json`, `server-tokens.json`, or one an operator named)
 * into the token store, then renames each aside to `<name>.imported`. Hashes, ids, labels,
 * dates and revocations are kept; an MCP record becomes an agent grant. A file is imported whole
 * or not at all: a damaged one (not JSON, not a token file, a record that is no whole grant) is
 * left in place, untouched, and reported to `log`. Importing is idempotent: the store skips an
 * id it holds, so a crash between the inserts and the rename imports nothing twice, and the
 * next open finishes the job. A missing file is no import.
 */
export async function importTokenFiles(store: MemoryTokenStore, paths: readonly string[], log: MemplaneHostLog = () => undefined): Promise<TokenFileImport[]> {
  const results: TokenFileImport[] = [];
  for (const path of paths) {
    try {
      await lstat(path);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') continue;
      log({ code: 'TOKEN_FILE_DAMAGED', path, message: `The token file ${path} cannot be read (${codeOf(error) ?? String(error)}); it was not imported`, cause: error });
      continue;
    }
    const rows = await readRows(path);
    if (!Array.isArray(rows)) {
      log({ code: 'TOKEN_FILE_DAMAGED', path, message: `${rows.damage}; it was not imported`, cause: rows.cause });
      continue;
    }
    const counts = await insertRows(store, rows);
    let renamedTo: string | undefined;
    try {
      renamedTo = await asideName(path);
      await rename(path, renamedTo);
    } catch (error) {
      // Another process opening the same folder renamed it first: its tokens are in the store either way.
      if (codeOf(error) !== 'ENOENT') {
        renamedTo = undefined;
        log({
          code: 'TOKEN_FILE_NOT_RENAMED',
          path,
          message: `The tokens of ${basename(path)} were imported, but the file could not be renamed aside (${codeOf(error) ?? String(error)}); it is imported again, harmlessly, at the next open`,
          cause: error,
        });
      }
    }
    if (renamedTo !== undefined) {
      // A process of the old version may have issued or revoked a token between the read and the
      // rename: what it wrote is in the file renamed aside, so read it once more (idempotent).
      const after = await readRows(renamedTo).catch(() => undefined);
      if (Array.isArray(after)) counts.imported += (await insertRows(store, after)).imported;
    }
    results.push({ path, ...counts, renamedTo });
  }
  return results;
}
