import { MemoryValidationError } from '@memplane/core';
import { MockEmbeddingModelV3 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScopePolicyError } from '../scope/scope-policy-error';
import { ANY } from '../scope/scope-selector';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createSpyStore } from '../testing/spy-store';
import { letterCountEmbedder } from '../testing/mock-models';
import { createMemoryEngine } from './create-memory-engine';

async function seeded(policy = {}) {
  const spy = createSpyStore();
  const engine = await createMemoryEngine({ scope: orgProjectScope, store: spy.store, profiles: { default: { embeddingModel: letterCountEmbedder() } }, policy, now: steppingClock() });
  for (const org of ['acme', 'globex']) {
    for (const project of ['p1', 'p2', 'p3']) {
      await engine.writeItems({ org, project }, Array.from({ length: 40 }, (_, index) => ({ text: `Deploy note ${index} for ${org} ${project}: deploys run on Tuesday.` })));
    }
  }
  return { engine, calls: spy.calls };
}

describe('cross-scope retrieval policy', () => {
  it('refuses ANY on the boundary field before any query runs', async () => {
    const { engine, calls } = await seeded();
    const before = calls.length;
    const error = await engine.retrieve({ org: ANY, project: 'p1' }, 'deploys').catch((caught: unknown) => caught);
    expect(ScopePolicyError.isInstance(error) && error.rule).toBe('scope.boundary_any');
    expect(calls.slice(before)).toEqual([]);
  });

  it('refuses an IN over the combination cap before any query runs', async () => {
    const { engine, calls } = await seeded({ maxScopeCombinations: 4 });
    const before = calls.length;
    const error = await engine.retrieve({ org: { in: ['acme', 'globex'] }, project: { in: ['p1', 'p2', 'p3'] } }, 'deploys').catch((caught: unknown) => caught);
    expect(ScopePolicyError.isInstance(error) && error.rule).toBe('scope.combination_cap');
    expect(calls.slice(before)).toEqual([]);
  });

  it('refuses a topK or candidate count above the caps, and every recall stays within them', async () => {
    const { engine, calls } = await seeded({ maxTopK: 20, maxLexicalCandidates: 30, maxVectorCandidates: 25 });
    await expect(engine.retrieve({ org: 'acme', project: ANY }, 'deploys', { topK: 21 })).rejects.toSatisfy((error: unknown) => ScopePolicyError.isInstance(error) && error.rule === 'scope.candidate_cap');
    await expect(engine.retrieve({ org: 'acme', project: ANY }, 'deploys', { candidates: 31 })).rejects.toSatisfy((error: unknown) => ScopePolicyError.isInstance(error));
    const before = calls.length;
    const result = await engine.retrieve({ org: 'acme', project: ANY }, 'deploys on tuesday', { topK: 20 });
    const recalls = calls.slice(before).filter((call) => call.method === 'searchLexical' || call.method === 'search');
    expect(recalls.map((call) => call.method).sort()).toEqual(['search', 'searchLexical']);
    for (const call of recalls) {
      const { limit } = call.args[0] as { limit: number };
      expect(limit).toBeLessThanOrEqual(call.method === 'search' ? 25 : 30);
    }
    expect(result.items).toHaveLength(20);
    expect(result.items.every((entry) => entry.item.scope.org === 'acme')).toBe(true);
    // The range's 120 items are never listed: the index keeps the statistics.
    expect(calls.slice(before).filter((call) => call.method === 'listItems')).toEqual([]);
    expect(result.degraded).toEqual([]);
  });

  it('scores neighbour windows in one index search, whatever the size of the range', async () => {
    const { engine, calls } = await seeded();
    const before = calls.length;
    const result = await engine.retrieve({ org: 'acme', project: ANY }, 'deploys on tuesday', { topK: 5 });
    const searches = calls.slice(before).filter((call) => call.method === 'searchLexical');
    expect(searches.map((call) => (call.args[0] as { windowWeight: number }).windowWeight)).toEqual([3]);
    expect(calls.slice(before).some((call) => call.method === 'listItems' || call.method === 'countItems')).toBe(false);
    expect(result.items).toHaveLength(5);
    expect(result.degraded).toEqual([]);
  });

  it('returns only items of the selected scopes, whatever the selector (fast-check)', async () => {
    const { engine } = await seeded();
    const orgs = fc.oneof(fc.constantFrom('acme', 'globex', 'initech'), fc.record({ in: fc.subarray(['acme', 'globex', 'initech'], { minLength: 1 }) }));
    const projects = fc.oneof(fc.constantFrom('p1', 'p2', 'p9'), fc.constant(ANY), fc.record({ in: fc.subarray(['p1', 'p2', 'p3', 'p9'], { minLength: 1 }) }));
    await fc.assert(
      fc.asyncProperty(orgs, projects, async (org, project) => {
        const allowedOrgs = typeof org === 'string' ? [org] : org.in;
        const allowedProjects = typeof project === 'string' ? [project] : 'in' in project ? project.in : undefined;
        const result = await engine.retrieve({ org, project }, 'deploy tuesday', { topK: 50 });
        for (const { item } of result.items) {
          expect(allowedOrgs).toContain(item.scope.org);
          if (allowedProjects !== undefined) expect(allowedProjects).toContain(item.scope.project);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('degrades to lexical recall when the embedding model fails at query time, and says so', async () => {
    let calls = 0;
    const flaky = new MockEmbeddingModelV3({
      provider: 'test',
      modelId: 'flaky',
      doEmbed: async ({ values }) => {
        calls += 1;
        if (calls > 1) throw Object.assign(new Error('503 from the embedding service'), { statusCode: 503 });
        return { embeddings: values.map(() => [1, 0, 0]), warnings: [] };
      },
    });
    const engine = await createMemoryEngine({ scope: orgProjectScope, profiles: { default: { embeddingModel: flaky, maxRetries: 0 } }, now: steppingClock() });
    await engine.writeItems({ org: 'a', project: 'b' }, [{ text: 'Deploys run on Tuesday.' }]);
    const result = await engine.retrieve({ org: 'a', project: 'b' }, 'deploys');
    expect(result.items.map((entry) => entry.item.text)).toEqual(['Deploys run on Tuesday.']);
    expect(result.degraded).toEqual(['vector recall failed (MEMORY_API_CALL): lexical only']);
    const [run] = await engine.listRuns({ flow: 'retrieve' });
    expect(run?.status).toBe('ok');
    expect(run?.outputSummary).toContain('degraded');
  });

  it('refuses malformed retrieve options by field', async () => {
    const { engine } = await seeded();
    const error = await engine.retrieve({ org: 'acme', project: 'p1' }, 'x', { topK: 0 }).catch((caught: unknown) => caught);
    expect(MemoryValidationError.isInstance(error) && error.field).toBe('options.topK');
  });
});
