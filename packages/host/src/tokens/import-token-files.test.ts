import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifierSchema } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { MemplaneHostWarning } from '../host-warning';
import { createInMemoryTokenTable } from '../test-support/in-memory-token-table';
import { openHashedTokenFile } from './hashed-token-file';
import { importTokenFiles, mcpTokenFileName, serverTokenFileName } from './import-token-files';
import { createMemplaneTokenStore } from './memplane-token-store';

// The grants of the old files, as `@memplane/server` and `@memplane/mcp` wrote them.
const serverGrant = z.strictObject({
  role: z.enum(['operator', 'admin', 'agent']),
  operatorId: identifierSchema.optional(),
  companyIds: z.array(identifierSchema).optional(),
  companyId: identifierSchema.optional(),
  userId: identifierSchema.optional(),
  agentId: identifierSchema.optional(),
  actAsAgents: z.literal(true).optional(),
  requestsPerMinute: z.number().optional(),
});
const mcpScope = z.strictObject({ companyId: identifierSchema, agentId: identifierSchema, projectId: identifierSchema.optional() });

// A rename that fails as the test says: folder modes do not stop a test that runs as root.
const renameFailure = vi.hoisted(() => ({ code: undefined as string | undefined, before: undefined as (() => Promise<void>) | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      const before = renameFailure.before;
      renameFailure.before = undefined;
      await before?.();
      if (renameFailure.code !== undefined) throw Object.assign(new Error(`${renameFailure.code}: cannot rename`), { code: renameFailure.code });
      return actual.rename(from, to);
    },
  };
});

let folder: string;
let serverFile: string;
let mcpFile: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-token-import-'));
  serverFile = join(folder, serverTokenFileName);
  mcpFile = join(folder, mcpTokenFileName);
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

/** Old files with a token of each kind, one revoked and one with an expiry, as the old commands issued them. */
async function oldFiles() {
  const server = openHashedTokenFile(serverFile, { grant: serverGrant, tokenPrefix: 'mps_' });
  const mcp = openHashedTokenFile(mcpFile, { grant: mcpScope, tokenPrefix: 'mpt_' });
  const operator = await server.issue({ role: 'operator', operatorId: 'ops', companyIds: ['acme'], actAsAgents: true, requestsPerMinute: 100 }, { label: 'relay' });
  const admin = await server.issue({ role: 'admin', companyId: 'acme', userId: 'ada' });
  const revoked = await server.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' });
  await server.revoke(revoked.record.id);
  const agent = await mcp.issue({ companyId: 'acme', agentId: 'writer', projectId: 'apollo' }, { label: 'claude', expiresAt: new Date('2099-01-01T00:00:00Z') });
  return { operator, admin, revoked, agent };
}

describe('importing the old token files', () => {
  it('keeps every old token working as it did, revoked ones revoked, and renames the files aside', async () => {
    const old = await oldFiles();
    const table = createInMemoryTokenTable();
    const warnings: MemplaneHostWarning[] = [];
    const results = await importTokenFiles(table, [mcpFile, serverFile], (warning) => warnings.push(warning));
    expect(warnings).toEqual([]);
    expect(results).toEqual([
      { path: mcpFile, imported: 1, alreadyPresent: 0, renamedTo: `${mcpFile}.imported` },
      { path: serverFile, imported: 3, alreadyPresent: 0, renamedTo: `${serverFile}.imported` },
    ]);
    expect(existsSync(serverFile) || existsSync(mcpFile)).toBe(false);
    const tokens = createMemplaneTokenStore(table);
    expect(await tokens.verify(old.operator.token)).toEqual({
      role: 'operator',
      operatorId: 'ops',
      companyIds: ['acme'],
      actAsAgents: true,
      requestsPerMinute: 100,
      id: old.operator.record.id,
      label: 'relay',
      createdAt: old.operator.record.createdAt,
    });
    expect(await tokens.verify(old.admin.token)).toMatchObject({ role: 'admin', companyId: 'acme', userId: 'ada', id: old.admin.record.id });
    expect(await tokens.verify(old.agent.token)).toEqual({
      role: 'agent',
      companyId: 'acme',
      agentId: 'writer',
      projectId: 'apollo',
      id: old.agent.record.id,
      label: 'claude',
      createdAt: old.agent.record.createdAt,
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    expect(await tokens.verify(old.revoked.token)).toBeUndefined();
    expect((await tokens.list()).find((record) => record.id === old.revoked.record.id)).toMatchObject({ revokedAt: expect.any(String) });
    // And a token of the old files can be revoked in the store.
    expect(await tokens.revoke(old.admin.record.id)).toBe(true);
    expect(await tokens.verify(old.admin.token)).toBeUndefined();
  });

  it('imports nothing at the next open: the files are gone, and a file put back is imported again without a duplicate', async () => {
    await oldFiles();
    const table = createInMemoryTokenTable();
    await importTokenFiles(table, [mcpFile, serverFile]);
    expect(await importTokenFiles(table, [mcpFile, serverFile])).toEqual([]);
    expect(table.rows).toHaveLength(4);
    // An operator who restores the file by hand: the tokens are there already, and the old copy is not overwritten.
    await writeFile(serverFile, await readFile(`${serverFile}.imported`, 'utf8'));
    expect(await importTokenFiles(table, [serverFile])).toEqual([{ path: serverFile, imported: 0, alreadyPresent: 3, renamedTo: `${serverFile}.imported.1` }]);
    expect(table.rows).toHaveLength(4);
    expect(existsSync(`${serverFile}.imported`)).toBe(true);
  });

  it('after a crash between the inserts and the rename, imports each token once and keeps what the file revoked meanwhile', async () => {
    const old = await oldFiles();
    const crashing = createInMemoryTokenTable({ failInsertAfter: 2 });
    await expect(importTokenFiles(crashing, [serverFile])).rejects.toThrow('the process died here');
    expect(crashing.rows).toHaveLength(2);
    expect(existsSync(serverFile)).toBe(true);
    // The old server, still running, revokes a token that was already imported.
    await openHashedTokenFile(serverFile, { grant: serverGrant, tokenPrefix: 'mps_' }).revoke(old.operator.record.id);
    const table = createInMemoryTokenTable();
    table.rows.push(...crashing.rows);
    expect(await importTokenFiles(table, [serverFile])).toEqual([{ path: serverFile, imported: 1, alreadyPresent: 2, renamedTo: `${serverFile}.imported` }]);
    expect(table.rows.map((row) => row.id).sort()).toEqual([old.operator.record.id, old.admin.record.id, old.revoked.record.id].sort());
    const tokens = createMemplaneTokenStore(table);
    expect(await tokens.verify(old.operator.token)).toBeUndefined();
    expect(await tokens.verify(old.admin.token)).toBeDefined();
  });

  it('leaves a damaged file in place, imports none of it, and says so with a typed warning', async () => {
    await oldFiles();
    const intact = await readFile(serverFile, 'utf8');
    const damages: Array<[string, RegExp]> = [
      [intact.slice(0, 40), /not JSON/],
      [JSON.stringify({ version: 2, tokens: [] }), /is damaged: version/],
      // One record that is no whole grant (an admin without a company) spoils the file: nothing is half imported.
      [intact.replace('"userId": "ada"', '"userId": "ada", "operatorId": "ops"'), /is not a whole grant/],
      [intact.replace('"role": "admin"', '"role": "owner"'), /is damaged/],
    ];
    for (const [text, names] of damages) {
      await writeFile(serverFile, text);
      const table = createInMemoryTokenTable();
      const warnings: MemplaneHostWarning[] = [];
      expect(await importTokenFiles(table, [serverFile], (warning) => warnings.push(warning))).toEqual([]);
      expect(table.rows).toEqual([]);
      expect(await readFile(serverFile, 'utf8')).toBe(text);
      expect(warnings).toEqual([{ code: 'TOKEN_FILE_DAMAGED', path: serverFile, message: expect.stringMatching(names), cause: expect.anything() }]);
      expect(warnings[0]?.message).toContain(serverFile);
      expect(warnings[0]?.message).toMatch(/not imported/);
    }
  });

  it('warns when the file cannot be renamed aside, and imports it harmlessly again next time', async () => {
    await oldFiles();
    const table = createInMemoryTokenTable();
    const warnings: MemplaneHostWarning[] = [];
    renameFailure.code = 'EACCES';
    try {
      const results = await importTokenFiles(table, [serverFile], (warning) => warnings.push(warning));
      expect(results).toEqual([{ path: serverFile, imported: 3, alreadyPresent: 0, renamedTo: undefined }]);
    } finally {
      renameFailure.code = undefined;
    }
    expect(warnings).toMatchObject([{ code: 'TOKEN_FILE_NOT_RENAMED', path: serverFile, message: expect.stringContaining('EACCES') }]);
    expect(existsSync(serverFile)).toBe(true);
    expect(await importTokenFiles(table, [serverFile])).toEqual([{ path: serverFile, imported: 0, alreadyPresent: 3, renamedTo: `${serverFile}.imported` }]);
  });

  it('counts a file another process renamed first as imported, without a warning', async () => {
    await oldFiles();
    const table = createInMemoryTokenTable();
    const warnings: MemplaneHostWarning[] = [];
    renameFailure.code = 'ENOENT';
    try {
      expect(await importTokenFiles(table, [serverFile], (warning) => warnings.push(warning))).toMatchObject([{ imported: 3 }]);
    } finally {
      renameFailure.code = undefined;
    }
    expect(warnings).toEqual([]);
  });

  it('keeps what a process of the old version wrote between the read and the rename', async () => {
    const old = await oldFiles();
    const table = createInMemoryTokenTable();
    const server = openHashedTokenFile(serverFile, { grant: serverGrant, tokenPrefix: 'mps_' });
    let late: Awaited<ReturnType<typeof server.issue>> | undefined;
    renameFailure.before = async () => {
      await server.revoke(old.admin.record.id);
      late = await server.issue({ role: 'admin', companyId: 'globex' });
    };
    expect(await importTokenFiles(table, [serverFile])).toEqual([{ path: serverFile, imported: 4, alreadyPresent: 0, renamedTo: `${serverFile}.imported` }]);
    const tokens = createMemplaneTokenStore(table);
    expect(await tokens.verify(old.admin.token)).toBeUndefined();
    expect(await tokens.verify(late!.token)).toMatchObject({ companyId: 'globex' });
  });
});
