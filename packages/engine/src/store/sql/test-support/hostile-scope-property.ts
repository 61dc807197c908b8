import fc from 'fast-check';
import { tokenize } from '@memplane/rules';
import { expect, it } from 'vitest';
import type { EngineStore } from '../../engine-store';
import { scopeOf, testItem, testMeta } from './store-fixtures';

/** Scope values an attacker would try: SQL metacharacters, LIKE wildcards, quotes, Unicode of every plane. */
const hostileValue = fc.oneof(
  fc.constantFrom("'; DROP TABLE items; --", '%', '_', '\\', '"', "' OR '1'='1", 'acme', 'acme ', 'ACME', 'acmé', 'acme\u0301', '$1', '?', '*', '[]'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
).filter((value) => !value.includes('\u0000'));

/**
 * Two scopes whose values are hostile and different never see each other's items through any read
 * (by id, listing, count, lexical search), and a range names exactly the scopes it lists.
 */
export function itKeepsHostileScopesApart(name: string, fresh: () => Promise<EngineStore>, runs: number): void {
  it(`${name}: hostile scope values never escape their scope prefix (fast-check)`, async () => {
    const store = await fresh();
    await store.open({ ddlMode: 'create', meta: testMeta() });
    try {
      await fc.assert(
        fc.asyncProperty(hostileValue, hostileValue, hostileValue, async (company, project, otherCompany) => {
          fc.pre(company !== otherCompany);
          const mine = scopeOf(company, project);
          const theirs = scopeOf(otherCompany, project);
          const word = `zq${Math.random().toString(36).slice(2, 8)}`;
          const own = testItem(mine, `secret ${word} of mine`);
          const foreign = testItem(theirs, `secret ${word} of theirs`);
          await store.insertItems([own, foreign]);
          expect([...(await store.getItems(mine, [own.id, foreign.id])).keys()]).toEqual([own.id]);
          const listed = await store.listItems({ companyId: [company], projectId: [project] }, {}, { limit: 1000 });
          expect(listed.every((item) => item.scope.companyId === company && item.scope.projectId === project)).toBe(true);
          expect(listed.map((item) => item.id)).toContain(own.id);
          const hits = await store.searchLexical({ range: { companyId: [company] }, terms: tokenize(word), filter: {}, limit: 50 });
          expect(hits.map((hit) => hit.item.id)).toEqual([own.id]);
          expect(hits[0]!.item.scope).toEqual(mine);
          expect(await store.countItems({ companyId: [otherCompany], projectId: [project] }, { metadataEquals: {} })).toBeGreaterThanOrEqual(1);
          expect(await store.deleteItems(theirs, [own.id])).toEqual([]);
        }),
        { numRuns: runs, seed: 2126 },
      );
      // The tables survived every value.
      expect(await store.countItems({}, { excludeMerged: false })).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
}
