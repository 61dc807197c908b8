import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MemoryConfigurationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { rankByBm25 } from '../lexical-scoring';
import { SqliteLexicalIndex } from './sqlite-lexical-index';

const databases: Database.Database[] = [];
afterEach(() => {
  for (const database of databases.splice(0)) database.close();
});

function open(): { database: Database.Database; index: SqliteLexicalIndex<'body'> } {
  const database = new Database(':memory:');
  databases.push(database);
  const index = new SqliteLexicalIndex(database, { name: 'notes', fields: ['body'], filterColumn: 'scope' });
  index.create();
  return { database, index };
}

const block = 2 ** 32;
const rangeOf = (number: number) => ({ block: number, first: number * block, last: number * block + block - 1 });
const vocabulary = ['alpha', 'bravo', 'charli', 'delta', 'echo', 'grüße', '42'];

const documentSpec = fc.record({
  block: fc.integer({ min: 1, max: 2 }),
  tokens: fc.array(fc.constantFrom(...vocabulary), { maxLength: 8 }),
  agent: fc.constantFrom('a1', 'a2'),
  deleted: fc.boolean(),
});

describe('SqliteLexicalIndex', () => {
  it('scores exactly the BM25 of rankByBm25 over the documents of the block, after inserts and deletes', () => {
    fc.assert(
      fc.property(fc.array(documentSpec, { maxLength: 40 }), fc.uniqueArray(fc.constantFrom(...vocabulary, 'zulu'), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 2 }), (documents, terms, searched) => {
        const { index } = open();
        const rowids = documents.map((document, position) => document.block * block + position + 1);
        documents.forEach((document, position) => index.insert(rowids[position] as number, document.block, { body: document.tokens }, document.agent));
        documents.forEach((document, position) => document.deleted && index.delete(rowids[position] as number));
        const live = documents.map((document, position) => ({ ...document, rowid: rowids[position] as number })).filter((document) => !document.deleted && document.block === searched);
        const expected = rankByBm25(terms, live.map((document) => ({ payload: document.rowid, terms: document.tokens })));
        const scores = index.score('body', terms, rangeOf(searched));
        expect(new Map(expected.map((match) => [match.payload, match.score]))).toEqual(scores);
        // A filter keeps the block's statistics: the same scores, for the documents it selects.
        const filtered = index.score('body', terms, rangeOf(searched), 'scope : "a1"');
        const agentOne = new Set(live.filter((document) => document.agent === 'a1').map((document) => document.rowid));
        expect(filtered).toEqual(new Map([...scores].filter(([rowid]) => agentOne.has(rowid))));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the totals of each block on write and delete', () => {
    const { index } = open();
    index.insert(block + 1, 1, { body: ['alpha', 'bravo'] });
    index.insert(block + 2, 1, { body: ['alpha'] });
    index.insert(2 * block + 1, 2, { body: ['echo', 'echo', 'echo'] });
    index.delete(block + 1);
    index.delete(block + 99);
    expect(index.totals(1)).toEqual({ documents: 1, lengths: { body: 1 }, windows: 0, windowLength: 0 });
    expect(index.totals(2)).toEqual({ documents: 1, lengths: { body: 3 }, windows: 0, windowLength: 0 });
    expect(index.totals(3)).toEqual({ documents: 0, lengths: { body: 0 }, windows: 0, windowLength: 0 });
  });

  it('finds a term repeated in a document with its frequency, and gives a term in every document a positive weight', () => {
    const { index } = open();
    index.insert(block + 1, 1, { body: ['deploy', 'deploy', 'deploy', 'bill'] });
    index.insert(block + 2, 1, { body: ['deploy', 'bill'] });
    const scores = index.score('body', ['deploy', 'bill'], rangeOf(1));
    expect(scores.get(block + 1)).toBeGreaterThan(0);
    expect(scores.get(block + 2)).toBeGreaterThan(0);
    expect(scores.get(block + 1)).not.toBe(scores.get(block + 2));
  });

  it('reads a term from the index, not every document of the range (query plan)', () => {
    const { database, index } = open();
    index.insert(block + 1, 1, { body: ['alpha'] });
    const plan = database
      .prepare('EXPLAIN QUERY PLAN SELECT t.rowid FROM notes_fts AS f JOIN notes_terms AS t ON t.rowid = f.rowid WHERE notes_fts MATCH ? AND f.rowid BETWEEN ? AND ?')
      .all('body : "alpha"', 0, 1) as Array<{ detail: string }>;
    const details = plan.map((step) => step.detail);
    expect(details.some((detail) => /VIRTUAL TABLE INDEX \d+:M/.test(detail))).toBe(true);
    expect(details.some((detail) => /SEARCH t USING INTEGER PRIMARY KEY/.test(detail))).toBe(true);
    expect(details.some((detail) => /SCAN t\b/.test(detail))).toBe(false);
  });

  it('refuses a table or column name that is not a plain identifier', () => {
    const database = new Database(':memory:');
    databases.push(database);
    expect(() => new SqliteLexicalIndex(database, { name: 'notes; DROP TABLE x', fields: ['body'] })).toThrow(MemoryConfigurationError);
    expect(() => new SqliteLexicalIndex(database, { name: 'notes', fields: ['body'], filterColumn: 'filter"' })).toThrow(/not a plain SQL identifier/);
  });
});
