import { describe, expect, it } from 'vitest';
import type { EngineStore } from '../../engine-store';
import { scopeOf, testMeta } from './store-fixtures';

/** A vector of `dimensions` pointing mostly along `axis`, with a small lean towards `lean`. */
export function unitVector(dimensions: number, axis: number, lean = 0, leanAxis = (axis + 1) % dimensions): Float32Array {
  const vector = new Float32Array(dimensions);
  vector[axis] = 1;
  vector[leanAxis] = lean;
  return vector;
}

/**
 * The vector index behaviour every backend must show (§3, §11.4): nearest first, scope range and
 * model respected, hits carrying their scope, replace on upsert, removal, and reads by id.
 */
export function describeVectorIndexContract(name: string, fresh: () => Promise<EngineStore>, dimensions: number): void {
  describe(`${name}: vector index`, () => {
    it('finds the nearest vectors of the range and model, best first, with their scope', async () => {
      const store = await fresh();
      await store.open({ ddlMode: 'create', meta: testMeta() });
      const index = store.vectorIndex!;
      expect(index).toBeDefined();
      const acme = scopeOf('acme');
      const other = scopeOf('other');
      await index.upsert([
        { itemId: 'near', scope: acme, model: 'm1', vector: unitVector(dimensions, 0, 0.1) },
        { itemId: 'far', scope: acme, model: 'm1', vector: unitVector(dimensions, 2) },
        { itemId: 'middle', scope: scopeOf('acme', 'p2'), model: 'm1', vector: unitVector(dimensions, 0, 0.9) },
        { itemId: 'foreign', scope: other, model: 'm1', vector: unitVector(dimensions, 0) },
        { itemId: 'other-model', scope: acme, model: 'm2', vector: unitVector(dimensions, 0) },
      ]);
      const hits = await index.search({ range: { companyId: ['acme'] }, model: 'm1', vector: unitVector(dimensions, 0), limit: 10 });
      expect(hits.map((hit) => hit.itemId)).toEqual(['near', 'middle', 'far']);
      expect(hits[0]!.scope).toEqual(acme);
      expect(hits[0]!.similarity).toBeGreaterThan(0.99);
      expect(hits[1]!.scope).toEqual(scopeOf('acme', 'p2'));
      const narrow = await index.search({ range: { companyId: ['acme'], projectId: ['p1'] }, model: 'm1', vector: unitVector(dimensions, 0), limit: 1 });
      expect(narrow.map((hit) => hit.itemId)).toEqual(['near']);

      await index.upsert([{ itemId: 'far', scope: acme, model: 'm1', vector: unitVector(dimensions, 0) }]);
      expect((await index.search({ range: { companyId: ['acme'] }, model: 'm1', vector: unitVector(dimensions, 0), limit: 1 }))[0]!.itemId).toBe('far');
      const stored = await index.get(acme, ['far', 'near', 'foreign'], 'm1');
      expect([...stored.keys()].sort()).toEqual(['far', 'near']);
      expect(Array.from(stored.get('far')!)).toEqual(Array.from(unitVector(dimensions, 0)));
      await index.remove(other, ['near']);
      await index.remove(acme, ['near', 'missing']);
      const after = await index.search({ range: { companyId: ['acme', 'other'] }, model: 'm1', vector: unitVector(dimensions, 0), limit: 10 });
      expect(after.map((hit) => hit.itemId).sort()).toEqual(['far', 'foreign', 'middle']);
      await store.close();
    });

    it('refuses vectors that are not finite', async () => {
      const store = await fresh();
      await store.open({ ddlMode: 'create', meta: testMeta() });
      const bad = unitVector(dimensions, 0);
      bad[1] = Number.NaN;
      await expect(store.vectorIndex!.upsert([{ itemId: 'x', scope: scopeOf('acme'), model: 'm1', vector: bad }])).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
      await store.close();
    });
  });
}
