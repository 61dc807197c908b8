import { describe, expect, it } from 'vitest';
import type { MemoryTokenRow } from '../store/memory-token-store';
import type { StoreUnderTest } from './memory-service-store-suite';

const hashOf = (digit: string): string => digit.repeat(64);

const token = (overrides: Partial<MemoryTokenRow> = {}): MemoryTokenRow => ({
  id: 'tok_aaaaaaaaaaaaaaaaaaaaaaaa',
  hash: hashOf('a'),
  role: 'agent',
  grant: { companyId: 'acme', agentId: 'planner', projectId: null },
  label: 'planner on acme',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-02-01T00:00:00.000Z',
  revokedAt: null,
  ...overrides,
});

/** The token table: hashed bearer tokens, read from the database on every call. */
export function describeStoreTokenRules(subject: StoreUnderTest): void {
  describe('tokens', () => {
    it('inserts a token and finds it by its hash, as it was written', async () => {
      const operator = token({ id: `tok_${'operator_'.padEnd(24, '0')}`, hash: hashOf('b'), role: 'operator', grant: {}, label: null, expiresAt: null });
      expect(await subject.store.insertToken(token())).toBe(true);
      expect(await subject.store.insertToken(operator)).toBe(true);
      expect(await subject.store.findTokenByHash(hashOf('a'))).toEqual(token());
      expect(await subject.store.findTokenByHash(hashOf('b'))).toEqual(operator);
      expect(await subject.store.findTokenByHash(hashOf('c'))).toBeUndefined();
    });

    it('refuses a token whose id or hash exists with false, and writes nothing of it', async () => {
      await subject.store.insertToken(token());
      const sameId = token({ hash: hashOf('b'), role: 'operator', label: 'same id' });
      const sameHash = token({ id: 'tok_bbbbbbbbbbbbbbbbbbbbbbbb', role: 'operator', label: 'same hash' });
      expect(await subject.store.insertToken(sameId)).toBe(false);
      expect(await subject.store.insertToken(sameHash)).toBe(false);
      expect(await subject.store.findTokenByHash(hashOf('b'))).toBeUndefined();
      expect(await subject.store.findTokenByHash(hashOf('a'))).toEqual(token());
      expect(await subject.store.listTokens()).toEqual([token()]);
    });

    it('lists every token oldest first', async () => {
      const at = (hour: number) => `2026-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
      const rows = [3, 1, 2].map((hour) => token({ id: `tok_${String(hour).repeat(24)}`, hash: hashOf(String(hour)), createdAt: at(hour) }));
      for (const row of rows) expect(await subject.store.insertToken(row)).toBe(true);
      expect((await subject.store.listTokens()).map((row) => row.createdAt)).toEqual([at(1), at(2), at(3)]);
      expect(await subject.store.listTokens()).toEqual([rows[1], rows[2], rows[0]]);
    });

    it('keeps times as instants, read back in one form', async () => {
      await subject.store.insertToken(token({ createdAt: '2026-01-01T01:00:00+01:00', expiresAt: '2026-02-01T00:00:00Z' }));
      const found = await subject.store.findTokenByHash(hashOf('a'));
      expect(found).toMatchObject({ createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-02-01T00:00:00.000Z' });
    });

    it('revokes a token once: false for a second revocation and for an unknown id', async () => {
      await subject.store.insertToken(token());
      expect(await subject.store.revokeToken('tok_aaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-05T00:00:00.000Z')).toBe(true);
      expect(await subject.store.revokeToken('tok_aaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-06T00:00:00.000Z')).toBe(false);
      expect(await subject.store.revokeToken('tok_unknownunknownunknown000', '2026-01-06T00:00:00.000Z')).toBe(false);
      expect((await subject.store.findTokenByHash(hashOf('a')))?.revokedAt).toBe('2026-01-05T00:00:00.000Z');
    });

    it('keeps the id of a token imported from an old token file (tok_ and 16 hex)', async () => {
      const imported = token({ id: 'tok_0123456789abcdef', hash: hashOf('e') });
      expect(await subject.store.insertToken(imported)).toBe(true);
      expect(await subject.store.findTokenByHash(hashOf('e'))).toMatchObject({ id: 'tok_0123456789abcdef' });
      expect(await subject.store.revokeToken('tok_0123456789abcdef', '2026-01-05T00:00:00.000Z')).toBe(true);
    });

    it('refuses a malformed token with MemoryValidationError naming the field, and writes nothing', async () => {
      const malformed: Array<[Partial<MemoryTokenRow> | Record<string, unknown>, string]> = [
        [{ id: 'mps_aaaaaaaaaaaaaaaaaaaaaaaa' }, 'row.id'],
        [{ id: 'tok_0123456789abcde' }, 'row.id'],
        [{ id: 'tok_0123456789ABCDEF' }, 'row.id'],
        [{ hash: 'not a hash' }, 'row.hash'],
        [{ role: 'root' }, 'row.role'],
        [{ grant: ['operator'] }, 'row.grant'],
        [{ createdAt: 'yesterday' }, 'row.createdAt'],
        [{ label: 'a\u0000b' }, 'row.label'],
      ];
      for (const [overrides, path] of malformed) {
        await expect(subject.store.insertToken({ ...token(), ...overrides } as MemoryTokenRow)).rejects.toMatchObject({
          code: 'MEMORY_VALIDATION',
          issues: [expect.objectContaining({ path })],
        });
      }
      await expect(subject.store.revokeToken('tok_aaaaaaaaaaaaaaaaaaaaaaaa', 'soon')).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
      expect(await subject.store.listTokens()).toEqual([]);
    });

    const twoInstances = subject.openSecondInstance === undefined;
    it.skipIf(twoInstances)(
      `a second store on the same database sees a token and its revocation at once (no cache)${twoInstances ? ' (skipped: this store has no second instance)' : ''}`,
      async () => {
        const second = await subject.openSecondInstance!();
        try {
          await second.migrate();
          // Read before the change: a store that cached it would answer from the cache afterwards.
          expect(await second.findTokenByHash(hashOf('a'))).toBeUndefined();
          await subject.store.insertToken(token());
          expect(await second.findTokenByHash(hashOf('a'))).toEqual(token());
          expect(await subject.store.revokeToken('tok_aaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-05T00:00:00.000Z')).toBe(true);
          expect((await second.findTokenByHash(hashOf('a')))?.revokedAt).toBe('2026-01-05T00:00:00.000Z');
          expect(await second.revokeToken('tok_aaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-06T00:00:00.000Z')).toBe(false);
          expect(await second.listTokens()).toEqual([token({ revokedAt: '2026-01-05T00:00:00.000Z' })]);
        } finally {
          await second.close();
        }
      },
    );
  });
}
