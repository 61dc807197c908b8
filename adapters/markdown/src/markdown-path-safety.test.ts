import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MemoryScopeViolationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { decodePathSegment, encodePathSegment } from './markdown-paths';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const temporary = useTemporaryRoots();
const outsideFolders: string[] = [];
afterEach(() => {
  for (const folder of outsideFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function outsideFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'memplane-outside-'));
  outsideFolders.push(folder);
  return folder;
}

/** What Windows refuses or silently changes in a file name. */
function unsafeOnWindows(segment: string): boolean {
  return (
    /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i.test(segment) ||
    /[. ]$/.test(segment) ||
    /[<>:"/\\|?*\u0000-\u001f]/.test(segment) ||
    segment === '' ||
    segment.startsWith('.')
  );
}

const identifier = fc.string({ unit: fc.oneof(fc.constantFrom('.', ' ', '%', '~', 'C', 'o', 'n', 'L', 'P', 'T', '1', 'a', 'u', 'x', '/', '\\'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 60 })
  .filter((value) => /^[^\u0000-\u001f\u007f]+$/.test(value));

describe('markdown path segments', () => {
  it.each(['CON', 'con', 'Aux', 'NUL', 'prn', 'COM1', 'com9', 'LPT1', 'lpt9', 'con.txt', 'AUX.md', 'nul.tar.gz', 'COM0', 'a.', 'a..', 'x. ', 'trailing ', ' ', '.', '..', 'v1.'])(
    'encodes %j as a segment Windows keeps as it is, and decodes it back',
    (value) => {
      const segment = encodePathSegment(value);
      expect(unsafeOnWindows(segment), segment).toBe(false);
      expect(decodePathSegment(segment)).toBe(value);
    },
  );

  it('keeps readable identifiers as they were, and decodes folders written before reserved names were encoded', () => {
    for (const value of ['acme', 'agent-7', 'v1.2', 'CONTOSO', 'console', 'com10', 'lpt', 'a_b']) expect(encodePathSegment(value)).toBe(value);
    for (const old of ['CON', 'aux', 'a.', 'LPT1', 'x%2Fy']) expect(decodePathSegment(old)).toBe(old.replace('%2F', '/'));
  });

  it('round-trips every identifier and never yields an unsafe or shared segment (property)', () => {
    fc.assert(
      fc.property(identifier, identifier, (left, right) => {
        const segment = encodePathSegment(left);
        expect(unsafeOnWindows(segment), segment).toBe(false);
        expect(segment.length).toBeLessThanOrEqual(80);
        if (!segment.includes('~')) expect(decodePathSegment(segment)).toBe(left);
        if (left !== right) expect(encodePathSegment(right)).not.toBe(segment);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('markdown adapter: file system safety', () => {
  it('writes reserved and trailing-dot scope values to safe folders, and reads roots written before', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const scope = { companyId: 'CON', agentId: 'aux.', namespace: 'LPT1' };
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Reserved names stay readable.' }] });
    for (const name of readdirSync(join(root, 'companies'))) expect(unsafeOnWindows(name), name).toBe(false);
    const folder = join(root, 'companies', encodePathSegment('CON'));
    for (const name of readdirSync(folder)) expect(/[. ]$/.test(name), name).toBe(false);
    // A root written before: the company folder named CON as it was.
    adapter.close();
    renameSync(folder, join(root, 'companies', 'CON'));
    const reopened = temporary.open({ root });
    expect(await reopened.get(records![0]!, scope)).toMatchObject({ text: 'Reserved names stay readable.' });
    await reopened.upsertRecords({ bindingKey, scope, records: [{ text: 'A new record after the upgrade.' }] });
    expect((await reopened.list({ bindingKey, scope })).items.map((item) => item.text).sort()).toEqual(['A new record after the upgrade.', 'Reserved names stay readable.']);
  });

  it('refuses to write through a symlinked company folder that points outside the root', async () => {
    const root = temporary.root();
    const outside = outsideFolder();
    mkdirSync(join(root, 'companies'), { recursive: true });
    symlinkSync(outside, join(root, 'companies', 'acme'), 'dir');
    const adapter = temporary.open({ root });
    await expect(adapter.upsertRecords({ bindingKey, scope: { companyId: 'acme' }, records: [{ text: 'Must not leave the root.' }] })).rejects.toThrow(MemoryScopeViolationError);
    expect(readdirSync(outside)).toEqual([]);
    await expect(adapter.capture({ bindingKey, scope: { companyId: 'acme' }, source: { kind: 'run', companyId: 'acme' }, payload: { text: 'We decided to keep this inside.' } })).rejects.toThrow(MemoryScopeViolationError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a state folder that is a link leading outside the root', () => {
    const root = temporary.root();
    const outside = outsideFolder();
    symlinkSync(outside, join(root, '.memplane'), 'dir');
    expect(() => temporary.open({ root })).toThrow(MemoryScopeViolationError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses to write through a symlinked scope folder or file, and leaves the outside untouched', async () => {
    const root = temporary.root();
    const outside = outsideFolder();
    const adapter = temporary.open({ root, now: () => new Date('2026-11-22T10:00:00Z') });
    const scope = { companyId: 'acme', agentId: 'planner' };
    await adapter.upsertRecords({ bindingKey, scope: { companyId: 'acme' }, records: [{ text: 'Inside the root.' }] });
    symlinkSync(outside, join(root, 'companies', 'acme', 'agent=planner'), 'dir');
    await expect(adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Must not leave the root.' }] })).rejects.toThrow(MemoryScopeViolationError);
    expect(readdirSync(outside)).toEqual([]);
    // A day file that is a link to a file outside: neither read into the root nor written.
    const secretFile = join(outside, 'secret.txt');
    writeFileSync(secretFile, 'outside secret\n');
    const dayFile = join(root, 'companies', 'acme', '_company', '2026-11-22.md');
    rmSync(dayFile);
    symlinkSync(secretFile, dayFile);
    await expect(adapter.upsertRecords({ bindingKey, scope: { companyId: 'acme' }, records: [{ text: 'Another one.' }] })).rejects.toThrow(MemoryScopeViolationError);
    expect(readFileSync(secretFile, 'utf8')).toBe('outside secret\n');
    expect(readdirSync(outside).sort()).toEqual(['secret.txt']);
  });
});
