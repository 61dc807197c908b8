import { scopeMatches, type MemoryAdapter, type MemoryScope } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedBodies } from './testing/agentcore-recorded-requests';
import { setupAgentCoreTestEnvironment } from './testing/agentcore-test-environment';

/*
 * Attacks on the promise that list and query work for every scope the contract allows. The
 * fake holds the adapter to AgentCore's documented rules: at most 5 metadata filters per call,
 * only on keys declared as indexed keys, and RetrieveMemoryRecords pages of 20 by default.
 */

const environment = setupAgentCoreTestEnvironment();
const metadataFields = ['projectId', 'issueId', 'runId', 'subjectId', 'sessionKey', 'namespace'] as const;
const fullScope: MemoryScope = {
  companyId: 'acme',
  agentId: 'planner',
  projectId: 'p1',
  issueId: 'i1',
  runId: 'r1',
  subjectId: 's1',
  sessionKey: 'k1',
  namespace: 'n1',
};

async function write(adapter: MemoryAdapter, scope: MemoryScope, texts: string[]): Promise<void> {
  const result = await adapter.upsertRecords({ bindingKey: 'default', scope, records: texts.map((text) => ({ text })) });
  expect(result.failures ?? []).toEqual([]);
}

type Filter = { left: { metadataKey: string } };
function sentFilters(): Filter[][] {
  const bodies = [
    ...recordedBodies(environment.server.calls, 'POST', /\/memoryRecords$/).map((body) => (body as { metadataFilters?: Filter[] }).metadataFilters),
    ...recordedBodies(environment.server.calls, 'POST', /\/retrieve$/).map((body) => (body as { searchCriteria: { metadataFilters?: Filter[] } }).searchCriteria.metadataFilters),
  ];
  return bodies.map((filters) => filters ?? []);
}

describe('a scope that names every field', () => {
  it('lists and queries its records with at most 5 filters, all on the declared indexed keys', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, fullScope, ['deploys happen on tuesdays']);
    await write(adapter, { ...fullScope, runId: 'r2' }, ['deploys of another run']);
    await write(adapter, { ...fullScope, sessionKey: 'k2' }, ['deploys of another session']);
    const page = await adapter.list({ bindingKey: 'default', scope: fullScope });
    expect(page.items.map((item) => item.text)).toEqual(['deploys happen on tuesdays']);
    expect(page.warnings).toEqual([]);
    const bundle = await adapter.query({ bindingKey: 'default', scope: fullScope, query: 'deploys' });
    expect(bundle.snippets.map((snippet) => snippet.text)).toEqual(['deploys happen on tuesdays']);
    expect(bundle.warnings).toEqual([]);
    const declared = [...environment.fake.indexedKeys.keys()];
    for (const filters of sentFilters()) {
      expect(filters.length).toBeLessThanOrEqual(5);
      for (const filter of filters) expect(declared).toContain(filter.left.metadataKey);
    }
  });
});

describe('every scope the contract allows', () => {
  // Small value sets make requests and records collide, so matches and near misses both occur.
  const value = fc.constantFrom('x', 'y');
  const scopeArbitrary = fc.record(
    { agentId: value, projectId: value, issueId: value, runId: value, subjectId: value, sessionKey: value, namespace: value },
    { requiredKeys: [] },
  );

  it('list and query return exactly the records core scopeMatches admits, through the fake rules', async () => {
    const adapter = environment.createAdapter();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(scopeArbitrary, { minLength: 1, maxLength: 6 }), scopeArbitrary, async (written, requested) => {
        run += 1;
        const companyId = `company-${run}`;
        for (const [index, scope] of written.entries()) await write(adapter, { companyId, ...scope }, [`note ${index}`]);
        const request: MemoryScope = { companyId, ...requested };
        const expected = written.flatMap((scope, index) => (scopeMatches({ companyId, ...scope }, request) ? [`note ${index}`] : []));
        const listed = await adapter.list({ bindingKey: 'default', scope: request, limit: 100 });
        expect(listed.items.map((item) => item.text).sort()).toEqual(expected.sort());
        const queried = await adapter.query({ bindingKey: 'default', scope: request, query: 'note', topK: 100 });
        expect(queried.snippets.map((snippet) => snippet.text).sort()).toEqual(expected.sort());
      }),
      { numRuns: 40 },
    );
    for (const filters of sentFilters()) expect(filters.length).toBeLessThanOrEqual(5);
  });

  it('covers all 64 combinations of named fields with a record that matches each', async () => {
    const adapter = environment.createAdapter();
    await write(adapter, fullScope, ['the one record']);
    for (let mask = 0; mask < 64; mask += 1) {
      const scope: MemoryScope = { companyId: 'acme', agentId: 'planner' };
      metadataFields.forEach((field, bit) => {
        if ((mask & (1 << bit)) !== 0) scope[field] = fullScope[field];
      });
      const listed = await adapter.list({ bindingKey: 'default', scope });
      expect(listed.items.map((item) => item.text), JSON.stringify(scope)).toEqual(['the one record']);
    }
  });
});

describe('query size', () => {
  it('returns topK records above the 20 AgentCore returns per call by default, up to the contract maximum', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner', projectId: 'p1' };
    for (let start = 0; start < 120; start += 40) {
      await write(adapter, scope, Array.from({ length: 40 }, (_, index) => `deploy note ${start + index}`));
    }
    const fifty = await adapter.query({ bindingKey: 'default', scope, query: 'deploy note', topK: 50 });
    expect(fifty.snippets).toHaveLength(50);
    expect(new Set(fifty.snippets.map((snippet) => snippet.handle.providerRecordId)).size).toBe(50);
    const hundred = await adapter.query({ bindingKey: 'default', scope, query: 'deploy note', topK: 100 });
    expect(hundred.snippets).toHaveLength(100);
  });

  it('follows nextToken when AgentCore answers with smaller pages than asked', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme' };
    await write(adapter, scope, Array.from({ length: 30 }, (_, index) => `deploy note ${index}`));
    // maxResults is a maximum per call: AgentCore may answer with fewer and a nextToken.
    environment.fake.retrievePageLimit = 7;
    const bundle = await adapter.query({ bindingKey: 'default', scope, query: 'deploy note', topK: 25 });
    expect(bundle.snippets).toHaveLength(25);
    expect(bundle.usage?.length).toBe(4);
  });
});
