import type { MemoryContextBundle } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { acme, bindingKey, createTestAdapter, write } from './memory-test-support';

const ask = (query: string, extra: Record<string, unknown> = {}) => ({ bindingKey, scope: acme, query, ...extra });

describe('query', () => {
  it('returns the matching records best first, with scores above zero', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Lunch is at noon.', 'Deploys happen on Tuesdays.', 'Deploy windows close on Friday at noon.');
    const { snippets } = await adapter.query(ask('When do deploys happen?'));
    expect(snippets.map((snippet) => snippet.text)).toEqual(['Deploys happen on Tuesdays.', 'Deploy windows close on Friday at noon.']);
    expect(snippets[0]?.score).toBeGreaterThan(snippets[1]?.score ?? Infinity);
    expect(snippets[1]?.score).toBeGreaterThan(0);

    const noon = await adapter.query(ask('noon friday'));
    expect(noon.snippets.map((snippet) => snippet.text)).toEqual(['Deploy windows close on Friday at noon.', 'Lunch is at noon.']);
    expect(noon.snippets[0]?.score).toBeGreaterThan(noon.snippets[1]?.score ?? Infinity);
  });

  it('puts older records first among equal scores', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'alpha one', 'alpha two', 'alpha three');
    const { snippets } = await adapter.query(ask('alpha'));
    expect(snippets.map((snippet) => snippet.handle.providerRecordId)).toEqual(['mem_000001', 'mem_000002', 'mem_000003']);
  });

  it('returns 10 snippets by default and at most topK', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, ...Array.from({ length: 15 }, (_, index) => `shared term ${index}`));
    expect((await adapter.query(ask('shared'))).snippets).toHaveLength(10);
    expect((await adapter.query(ask('shared', { topK: 3 }))).snippets).toHaveLength(3);
    expect((await adapter.query(ask('shared', { topK: 100 }))).snippets).toHaveLength(15);
  });

  it('searches summaries as well as texts', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, { text: 'Prefers dark backgrounds.', summary: 'UI theme preference' });
    expect((await adapter.query(ask('theme'))).snippets).toHaveLength(1);
  });

  it('finds nothing for a query of stopwords, or of words no record has', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'This is what it was.');
    expect((await adapter.query(ask('what is this'))).snippets).toEqual([]);
    expect((await adapter.query(ask('zebra'))).snippets).toEqual([]);
  });

  it('applies the metadata filter with deep equality on every key', async () => {
    const adapter = createTestAdapter();
    await write(
      adapter,
      acme,
      { text: 'Deploy note one.', metadata: { team: 'web', labels: { env: 'prod', tier: 1 } } },
      { text: 'Deploy note two.', metadata: { team: 'web', labels: { env: 'staging', tier: 1 } } },
      { text: 'Deploy note three.', metadata: { team: 'data', labels: { env: 'prod', tier: 1 } } },
      { text: 'Deploy note four.' },
    );
    const filtered = await adapter.query(ask('deploy note', { metadataFilter: { team: 'web', labels: { tier: 1, env: 'prod' } } }));
    expect(filtered.snippets.map((snippet) => snippet.text)).toEqual(['Deploy note one.']);
    expect(filtered.warnings).toEqual([]);
    const all = await adapter.query(ask('deploy note', { metadataFilter: {} }));
    expect(all.snippets).toHaveLength(4);
  });

  it('ranks the same whatever the intent', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Deploys happen on Tuesdays.', 'Deploys are frozen in December.', 'Tuesdays are quiet.');
    const plain = await adapter.query(ask('deploys tuesdays'));
    for (const intent of ['agent_preamble', 'answer', 'browse']) {
      expect((await adapter.query(ask('deploys tuesdays', { intent }))).snippets).toEqual(plain.snippets);
    }
  });

  it('never returns forgotten records', async () => {
    const adapter = createTestAdapter();
    const [gone] = await write(adapter, acme, 'Deploys happen on Tuesdays.', 'Deploys are frozen in December.');
    await adapter.forget([gone as never], acme);
    const { snippets } = await adapter.query(ask('deploys'));
    expect(snippets.map((snippet) => snippet.text)).toEqual(['Deploys are frozen in December.']);
  });

  it('reports the analysed query terms, stemmed, in its usage details', async () => {
    const adapter = createTestAdapter();
    const result = await adapter.query(ask('When do the Deploys happen, deploying?'));
    expect(result.usage?.[0]?.details).toEqual({ ranking: 'bm25', queryTerms: ['deploy', 'happen'] });
  });

  it('matches word forms: deploy, deploys, deployed and deploying find each other', async () => {
    const forms = ['deploy', 'deploys', 'deployed', 'deploying'];
    for (const written of forms) {
      const adapter = createTestAdapter();
      await write(adapter, acme, `We ${written} on Tuesdays.`, 'Lunch is at noon.');
      for (const asked of forms) {
        const { snippets } = await adapter.query(ask(`when do we ${asked}?`));
        expect(snippets.map((snippet) => snippet.text), `${asked} over ${written}`).toEqual([`We ${written} on Tuesdays.`]);
      }
    }
  });

  it('answers the README sample: "when do we deploy?" finds "Deploys happen on Tuesdays."', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Deploys happen on Tuesdays.');
    const { snippets } = await adapter.query(ask('when do we deploy?'));
    expect(snippets.map((snippet) => snippet.text)).toEqual(['Deploys happen on Tuesdays.']);
  });
});

describe('explain', () => {
  it('gives one lexical step per snippet with its BM25 score and the terms it matched', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Deploys happen on Tuesdays.', 'Deploys are frozen in December.');
    const result = await adapter.query(ask('deploys tuesdays december'));
    const { steps } = await adapter.explain(result, acme);
    expect(steps).toEqual([
      {
        handle: result.snippets[0]?.handle,
        stage: 'lexical',
        score: result.snippets[0]?.rawScore,
        details: 'matched: deploy, tuesday',
      },
      {
        handle: result.snippets[1]?.handle,
        stage: 'lexical',
        score: result.snippets[1]?.rawScore,
        details: 'matched: deploy, decemb',
      },
    ]);
  });

  it('skips snippets that were forgotten since, are out of scope, or belong to another adapter', async () => {
    const adapter = createTestAdapter();
    const [first] = await write(adapter, acme, 'Deploys happen on Tuesdays.', 'Deploys are frozen in December.');
    const result = await adapter.query(ask('deploys'));
    await adapter.forget([first as never], acme);
    const foreign = { handle: { providerKey: 'mem0', providerRecordId: 'mem_000002' }, text: 'Deploys elsewhere.', score: 9 };
    const withForeign: MemoryContextBundle = { ...result, snippets: [...result.snippets, foreign] };
    const { steps } = await adapter.explain(withForeign, acme);
    expect(steps.map((step) => step.handle.providerRecordId)).toEqual(['mem_000002']);
    expect((await adapter.explain(result, { companyId: 'globex' })).steps).toEqual([]);
  });

  it('says so when the result no longer carries the query terms', async () => {
    const adapter = createTestAdapter();
    await write(adapter, acme, 'Deploys happen on Tuesdays.');
    const { snippets } = await adapter.query(ask('deploys'));
    const { steps } = await adapter.explain({ snippets }, acme);
    expect(steps[0]?.details).toBe('matched: unknown (the result carries no query terms from the memory adapter)');
  });

  it('explains against the current text after a correction', async () => {
    const adapter = createTestAdapter();
    const [handle] = await write(adapter, acme, 'Deploys happen on Tuesdays.');
    const result = await adapter.query(ask('tuesdays'));
    await adapter.correct(handle as never, { text: 'Deploys happen on Mondays.' }, acme);
    expect((await adapter.explain(result, acme)).steps[0]?.details).toBe('matched: none');
  });
});
