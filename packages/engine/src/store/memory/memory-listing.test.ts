import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ItemFilter, ItemKeyset } from '../engine-store';
import type { ItemRow } from '../engine-store-rows';
import { compareByKeyset, itemPassesFilter } from '../row-filters';
import { scopeOf, testItem } from '../sql/test-support/store-fixtures';
import { createInMemoryStore } from './memory-store';

const instants = ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z'];

describe('in-memory store: listItems from the index order', () => {
  it('pages every scope of a range in (createdAt, id) order, as a sort of all items would, after deletions (fast-check)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ id: fc.nat({ max: 99 }), scope: fc.nat({ max: 2 }), createdAt: fc.constantFrom(...instants), pending: fc.boolean(), deleted: fc.boolean() }), { selector: (spec) => spec.id, maxLength: 40 }),
        fc.subarray([0, 1, 2], { minLength: 1 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (specs, scopes, limit, onlyApproved) => {
          run += 1;
          const store = createInMemoryStore();
          const rows = specs.map((spec) => testItem(scopeOf(`c${spec.scope}`), `text ${spec.id}`, { id: `i${String(spec.id).padStart(2, '0')}`, createdAt: spec.createdAt, status: spec.pending ? 'pending' : 'approved' }));
          await store.insertItems(rows);
          for (const [index, spec] of specs.entries()) if (spec.deleted) await store.deleteItems((rows[index] as ItemRow).scope, [(rows[index] as ItemRow).id]);
          const filter: ItemFilter = onlyApproved ? { statuses: ['approved'] } : {};
          const range = { companyId: scopes.map((scope) => `c${scope}`) };
          const expected = rows
            .filter((row, index) => !specs[index]?.deleted && range.companyId.includes(row.scope.companyId as string) && itemPassesFilter(row, filter))
            .sort(compareByKeyset)
            .map((row) => row.id);
          const paged: string[] = [];
          let after: ItemKeyset | undefined;
          for (;;) {
            const page = await store.listItems(range, filter, { after, limit });
            expect(page.length).toBeLessThanOrEqual(limit);
            if (page.length === 0) break;
            paged.push(...page.map((row) => row.id));
            const last = page.at(-1) as ItemRow;
            after = { createdAt: last.createdAt, id: last.id };
          }
          expect(paged, `run ${run}`).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
