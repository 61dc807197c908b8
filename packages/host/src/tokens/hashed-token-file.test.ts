import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifierSchema, MemoryConfigurationError, MemoryConflictError, MemoryValidationError } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openHashedTokenFile } from './hashed-token-file';

const grant = z.strictObject({ companyId: identifierSchema, role: z.enum(['admin', 'agent']) });
let folder: string;
let path: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-tokens-'));
  path = join(folder, 'nested', 'tokens.json');
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

describe('the hashed token file', () => {
  it('returns a token once and keeps only its hash, in a file of mode 0600', async () => {
    const file = openHashedTokenFile(path, { grant, tokenPrefix: 'tst_' });
    const { token, record } = await file.issue({ companyId: 'acme', role: 'admin' }, { label: 'ci' });
    expect(token).toMatch(/^tst_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ companyId: 'acme', role: 'admin', label: 'ci', id: expect.stringMatching(/^tok_[0-9a-f]{16}$/), hash: expect.stringMatching(/^sha256:/) });
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(token.slice(4));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await file.verify(token)).toEqual(record);
  });

  it('refuses unknown, foreign-prefixed, oversized, revoked and expired tokens, and sees a revocation by another opener at once', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const file = openHashedTokenFile(path, { grant, tokenPrefix: 'tst_', now: () => now });
    const other = openHashedTokenFile(path, { grant, tokenPrefix: 'tst_' });
    const { token, record } = await file.issue({ companyId: 'acme', role: 'agent' }, { expiresAt: new Date('2026-01-02T00:00:00Z') });
    expect(await file.verify(token)).toBeDefined();
    for (const wrong of [`${token}x`, token.replace('tst_', 'mpt_'), `tst_${'a'.repeat(300)}`, '', 'tst_']) expect(await file.verify(wrong)).toBeUndefined();
    now = new Date('2026-01-02T00:00:00Z');
    expect(await file.verify(token)).toBeUndefined();
    now = new Date('2026-01-01T12:00:00Z');
    expect(await other.revoke(record.id)).toBe(true);
    expect(await file.verify(token)).toBeUndefined();
    expect(await other.revoke('tok_0000000000000000')).toBe(false);
  });

  it('refuses a bad grant before writing, refuses every token of a damaged file, and never loses a change to a held lock', async () => {
    const file = openHashedTokenFile(path, { grant, tokenPrefix: 'tst_' });
    await expect(file.issue({ companyId: 'acme', role: 'owner' as 'admin' })).rejects.toSatisfy((error) => MemoryValidationError.isInstance(error));
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    const { token } = await file.issue({ companyId: 'acme', role: 'admin' });
    await writeFile(`${path}.lock`, '');
    await expect(file.issue({ companyId: 'globex', role: 'admin' })).rejects.toSatisfy((error) => MemoryConflictError.isInstance(error));
    await rm(`${path}.lock`);
    expect(await file.list()).toHaveLength(1);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"admin"', '"owner"'));
    await expect(file.verify(token)).rejects.toSatisfy((error) => MemoryConfigurationError.isInstance(error));
  });

  it('names what is wrong with a damaged file, for its operator, whatever the damage', async () => {
    const file = openHashedTokenFile(path, { grant, tokenPrefix: 'tst_' });
    const { token } = await file.issue({ companyId: 'acme', role: 'admin' });
    const intact = await readFile(path, 'utf8');
    const damages: Array<[() => Promise<void>, RegExp]> = [
      [() => writeFile(path, intact.slice(0, 20)), /is damaged: it is not JSON \(/],
      [() => writeFile(path, JSON.stringify({ version: 1, tokens: [{ id: 'tok_1' }] })), /is damaged: tokens\.0\.\w+ /],
      [() => writeFile(path, 'null'), /is damaged: the file /],
      [
        async () => {
          await rm(path);
          await mkdir(path);
        },
        /cannot be read \(EISDIR\)/,
      ],
      // A link that loops is found by the look at the file's size and time, before any read.
      [
        async () => {
          await rm(path);
          await symlink(path, path);
        },
        /cannot be read \(ELOOP\)/,
      ],
    ];
    for (const [damage, names] of damages) {
      await damage();
      const refused = await file.verify(token).then(() => undefined, (error: unknown) => error);
      expect(MemoryConfigurationError.isInstance(refused), String(names)).toBe(true);
      expect((refused as Error).message).toContain(path);
      expect((refused as Error).message).toMatch(names);
      await rm(path, { recursive: true, force: true });
      await writeFile(path, intact);
      expect(await file.verify(token)).toBeDefined();
    }
  });
});
