import { describe, expect, it } from 'vitest';
import { createBruteForceVectorIndex } from './bruteforce-vector-index';
import { createInMemoryStore } from './memory/memory-store';
import { describeVectorIndexContract, unitVector } from './sql/test-support/vector-index-contract';
import { scopeOf } from './sql/test-support/store-fixtures';

describeVectorIndexContract('in-memory store (brute force)', async () => createInMemoryStore(), 8);

describe('brute-force vector index: scope buckets', () => {
  it('moves an item whose upsert names another scope, so the old scope no longer finds it', async () => {
    const index = createBruteForceVectorIndex();
    await index.upsert([{ itemId: 'moved', scope: scopeOf('acme'), model: 'm', vector: unitVector(4, 0) }]);
    await index.upsert([{ itemId: 'moved', scope: scopeOf('globex'), model: 'm', vector: unitVector(4, 0) }]);
    expect(await index.search({ range: { companyId: ['acme'] }, model: 'm', vector: unitVector(4, 0), limit: 5 })).toEqual([]);
    expect((await index.search({ range: { companyId: ['globex'] }, model: 'm', vector: unitVector(4, 0), limit: 5 })).map((hit) => hit.itemId)).toEqual(['moved']);
  });
});
