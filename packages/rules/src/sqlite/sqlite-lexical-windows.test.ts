import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { rankByBm25 } from '../lexical-scoring';
import { windowKeyOf, windowKeysCovering } from '../lexical-windows';
import { SqliteLexicalIndex } from './sqlite-lexical-index';

const databases: Database.Database[] = [];
afterEach(() => {
  for (const database of databases.splice(0)) database.close();
});

const shape = { field: 'body', size: 4, stride: 2 } as const;

function open(): { database: Database.Database; index: SqliteLexicalIndex<'body'> } {
  const database = new Database(':memory:');
  databases.push(database);
  const index = new SqliteLexicalIndex(database, { name: 'notes', fields: ['body'], filterColumn: 'scope', windows: shape });
  index.create();
  return { database, index };
}

const block = 2 ** 32;
const rangeOf = (number: number) => ({ block: number, first: number * block, last: number * block + block - 1 });
const vocabulary = ['alpha', 'bravo', 'charli', 'delta', 'echo'];

interface Spec {
  block: number;
  sequence: number;
  position: number;
  tokens: string[];
  agent: string;
  deleted: boolean;
}

const documentsSpec = fc.uniqueArray(
  fc.record({
    block: fc.integer({ min: 1, max: 2 }),
    sequence: fc.integer({ min: 0, max: 2 }),
    position: fc.integer({ min: 0, max: 9 }),
    tokens: fc.array(fc.constantFrom(...vocabulary), { maxLength: 5 }),
    agent: fc.constantFrom('a1', 'a2'),
    deleted: fc.boolean(),
  }),
  { selector: (document) => `${document.sequence}:${document.position}`, maxLength: 30 },
);

/** A sequence lives in one block, as a file or a conversation lives in one company. */
const sequenceOf = (document: Spec) => document.block * 10 + document.sequence;

/** The windows of the reference: each run of the shape over each sequence's live documents with tokens. */
function referenceWindows(live: Spec[]): Array<{ key: number; members: Spec[] }> {
  const windows = new Map<number, Spec[]>();
  for (const document of live) {
    if (document.tokens.length === 0) continue;
    for (const key of windowKeysCovering(sequenceOf(document), document.position, shape)) windows.set(key, [...(windows.get(key) ?? []), document]);
  }
  return [...windows].map(([key, members]) => ({ key, members }));
}

describe('SqliteLexicalIndex windows', () => {
  it('scores each window as BM25 over the windows of the block, with members summed, after inserts and deletes', () => {
    fc.assert(
      fc.property(documentsSpec, fc.uniqueArray(fc.constantFrom(...vocabulary, 'zulu'), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 2 }), fc.boolean(), (documents, terms, searched, filtered) => {
        const { index } = open();
        const rowidOf = (position: number) => (documents[position] as Spec).block * block + position + 1;
        index.insertMany(documents.map((document, position) => ({ rowid: rowidOf(position), block: document.block, tokens: { body: document.tokens }, filterTokens: document.agent, sequence: { id: sequenceOf(document), position: document.position } })));
        documents.forEach((document, position) => document.deleted && index.delete(rowidOf(position)));
        const live = documents.filter((document) => !document.deleted && document.block === searched);
        const windows = referenceWindows(live);
        const passes = (document: Spec) => !filtered || document.agent === 'a1';
        const expected = rankByBm25(terms, windows.map((window) => ({ payload: window.key, terms: window.members.flatMap((member) => member.tokens) })));
        const eligible = new Set(windows.filter((window) => window.members.some((member) => passes(member) && member.tokens.some((token) => terms.includes(token)))).map((window) => window.key));
        const found = index.scoreWithWindows(terms, rangeOf(searched), filtered ? 'scope : "a1"' : undefined);
        expect(found.windows).toEqual(new Map(expected.filter((match) => eligible.has(match.payload)).map((match) => [match.payload, match.score])));
        expect(found.documents).toEqual(index.score('body', terms, rangeOf(searched), filtered ? 'scope : "a1"' : undefined));
        for (const [rowid, best] of found.bestWindow) {
          const document = documents[(rowid % block) - 1] as Spec;
          const scores = windowKeysCovering(sequenceOf(document), document.position, shape).map((key) => found.windows.get(key) ?? 0);
          expect(best).toBe(Math.max(...scores));
        }
        const totals = index.totals(searched);
        expect({ windows: totals.windows, windowLength: totals.windowLength }).toEqual({
          windows: windows.length,
          windowLength: windows.reduce((sum, window) => sum + window.members.reduce((length, member) => length + member.tokens.length, 0), 0),
        });
      }),
      { numRuns: 150 },
    );
  });

  it('lists the members of windows with text, through the sequence index and never a scan of the terms table', () => {
    const { database, index } = open();
    const texts = [['alpha'], [], ['bravo'], ['charli'], ['delta']];
    index.insertMany(texts.map((tokens, position) => ({ rowid: block + position, block: 1, tokens: { body: tokens }, sequence: { id: 7, position } })));
    expect(index.windowMembers([windowKeyOf(7, 0), windowKeyOf(7, 2)]).sort()).toEqual(
      [[windowKeyOf(7, 0), block], [windowKeyOf(7, 0), block + 2], [windowKeyOf(7, 0), block + 3], [windowKeyOf(7, 2), block + 2], [windowKeyOf(7, 2), block + 3], [windowKeyOf(7, 2), block + 4]].sort(),
    );
    const plan = (database.prepare(`EXPLAIN QUERY PLAN SELECT j.value, t.rowid FROM json_each(?) AS j JOIN notes_terms AS t ON t.sequence = j.value / 4294967296 AND t.position BETWEEN j.value % 4294967296 AND j.value % 4294967296 + 3 WHERE t.body_length > 0`).all('[]') as Array<{ detail: string }>).map((step) => step.detail);
    expect(plan.some((detail) => /SEARCH t USING INDEX notes_terms_sequence/.test(detail))).toBe(true);
    expect(plan.some((detail) => /SCAN t\b/.test(detail))).toBe(false);
  });

  it('deletes a window with its last member, and forgets its share of the totals', () => {
    const { database, index } = open();
    index.insert(block + 1, 1, { body: ['alpha', 'bravo'] }, '', { id: 0, position: 0 });
    index.insert(block + 2, 1, { body: ['echo'] }, '', { id: 0, position: 3 });
    expect(index.totals(1)).toMatchObject({ windows: 2, windowLength: 4 });
    index.delete(block + 1);
    index.delete(block + 2);
    expect(index.totals(1)).toEqual({ documents: 0, lengths: { body: 0 }, windows: 0, windowLength: 0 });
    expect(database.prepare('SELECT count(*) AS count FROM notes_windows').get()).toEqual({ count: 0 });
  });

  it('refuses a bad shape and a place outside the key range, naming the field, and writes nothing', () => {
    const database = new Database(':memory:');
    databases.push(database);
    expect(() => new SqliteLexicalIndex(database, { name: 'notes', fields: ['body'], windows: { field: 'body', size: 0, stride: 1 } })).toThrow(MemoryConfigurationError);
    expect(() => new SqliteLexicalIndex(database, { name: 'notes', fields: ['body'], windows: { field: 'body', size: 2, stride: 3 } })).toThrow(/stride/);
    const { index } = open();
    for (const sequence of [{ id: -1, position: 0 }, { id: 2 ** 21, position: 0 }, { id: 0, position: 2 ** 32 }, { id: 0.5, position: 0 }]) {
      expect(() => index.insert(block + 1, 1, { body: ['alpha'] }, '', sequence)).toThrow(MemoryValidationError);
    }
    expect(index.totals(1)).toEqual({ documents: 0, lengths: { body: 0 }, windows: 0, windowLength: 0 });
    const plain = new SqliteLexicalIndex(database, { name: 'plain', fields: ['body'] });
    expect(() => plain.scoreWithWindows(['alpha'], rangeOf(1))).toThrow(/has no windows/);
  });
});
