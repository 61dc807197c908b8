import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { rankByBm25 } from './lexical-scoring';
import { windowKeyOf } from './lexical-windows';
import { MemoryLexicalIndex } from './memory-lexical-index';
import { SqliteLexicalIndex } from './sqlite/sqlite-lexical-index';

const databases: Database.Database[] = [];
afterEach(() => {
  for (const database of databases.splice(0)) database.close();
});

const shape = { field: 'body', size: 4, stride: 2 } as const;
const block = 2 ** 32;
const rangeOf = (number: number) => ({ block: number, first: number * block, last: number * block + block - 1 });
const vocabulary = ['alpha', 'bravo', 'charli', 'delta', 'echo'];

function sqliteIndex(): SqliteLexicalIndex<'body' | 'tags'> {
  const database = new Database(':memory:');
  databases.push(database);
  const index = new SqliteLexicalIndex(database, { name: 'notes', fields: ['body', 'tags'], filterColumn: 'scope', windows: shape });
  index.create();
  return index;
}

const documentsSpec = fc.uniqueArray(
  fc.record({
    block: fc.integer({ min: 1, max: 3 }),
    sequence: fc.integer({ min: 0, max: 2 }),
    position: fc.integer({ min: 0, max: 9 }),
    body: fc.array(fc.constantFrom(...vocabulary), { maxLength: 5 }),
    tags: fc.array(fc.constantFrom(...vocabulary), { maxLength: 2 }),
    agent: fc.constantFrom('a1', 'a2', 'a3'),
    deleted: fc.boolean(),
  }),
  { selector: (document) => `${document.block}:${document.sequence}:${document.position}`, maxLength: 40 },
);

describe('MemoryLexicalIndex', () => {
  it('finds the same scores, windows, members and totals as the SQLite index, over one block or several, filtered or not', () => {
    fc.assert(
      fc.property(
        documentsSpec,
        fc.uniqueArray(fc.constantFrom(...vocabulary, 'zulu'), { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<Array<readonly string[]>>([], [['a1']], [['a1', 'a3']]),
        (documents, terms, searched, clauses) => {
          const memory = new MemoryLexicalIndex({ fields: ['body', 'tags'], windows: shape });
          const sqlite = sqliteIndex();
          const indexed = documents.map((document, at) => ({
            rowid: document.block * block + at + 1,
            block: document.block,
            tokens: { body: document.body, tags: document.tags },
            sequence: { id: document.block * 10 + document.sequence, position: document.position },
          }));
          memory.insertMany(indexed.map((document, at) => ({ ...document, filterTokens: [(documents[at] as { agent: string }).agent] })));
          sqlite.insertMany(indexed.map((document, at) => ({ ...document, filterTokens: (documents[at] as { agent: string }).agent })));
          indexed.forEach((document, at) => {
            if (!(documents[at] as { deleted: boolean }).deleted) return;
            memory.delete(document.rowid);
            sqlite.delete(document.rowid);
          });
          const ranges = searched.map(rangeOf);
          const filter = clauses.length === 0 ? undefined : clauses.map((clause) => `scope : (${clause.map((token) => `"${token}"`).join(' OR ')})`).join(' AND ');
          const memoryFound = memory.scoreWithWindows(terms, ranges, clauses.length === 0 ? undefined : clauses);
          expect(memoryFound).toEqual(sqlite.scoreWithWindows(terms, ranges, filter));
          expect(memory.score('tags', terms, ranges, clauses.length === 0 ? undefined : clauses)).toEqual(sqlite.score('tags', terms, ranges, filter));
          const keys = [...memoryFound.windows.keys()];
          const sorted = (pairs: Array<[number, number]>) => pairs.sort((left, right) => left[0] - right[0] || left[1] - right[1]);
          expect(sorted(memory.windowMembers(keys))).toEqual(sorted(sqlite.windowMembers(keys)));
          for (const number of [1, 2, 3]) expect(memory.totals(number)).toEqual(sqlite.totals(number));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('scores several blocks as one corpus: plain BM25 over their live documents', () => {
    fc.assert(
      fc.property(documentsSpec, fc.uniqueArray(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 }), (documents, terms) => {
        const memory = new MemoryLexicalIndex({ fields: ['body'] });
        memory.insertMany(documents.map((document, at) => ({ rowid: document.block * block + at + 1, block: document.block, tokens: { body: document.body } })));
        documents.forEach((document, at) => document.deleted && memory.delete(document.block * block + at + 1));
        const live = documents.map((document, at) => ({ ...document, rowid: document.block * block + at + 1 })).filter((document) => !document.deleted && document.block !== 3);
        const expected = rankByBm25(terms, live.map((document) => ({ payload: document.rowid, terms: document.body })));
        expect(memory.score('body', terms, [rangeOf(1), rangeOf(2)])).toEqual(new Map(expected.map((match) => [match.payload, match.score])));
      }),
      { numRuns: 150 },
    );
  });

  it('forgets a deleted document: no posting, no window, no share of the totals', () => {
    const memory = new MemoryLexicalIndex({ fields: ['body'], windows: shape });
    memory.insertMany([{ rowid: block + 1, block: 1, tokens: { body: ['alpha', 'alpha', 'bravo'] }, sequence: { id: 4, position: 0 } }]);
    memory.delete(block + 1);
    expect(memory.has(block + 1)).toBe(false);
    expect(memory.totals(1)).toEqual({ documents: 0, lengths: { body: 0 }, windows: 0, windowLength: 0 });
    expect(memory.scoreWithWindows(['alpha'], [rangeOf(1)])).toEqual({ documents: new Map(), windows: new Map(), bestWindow: new Map() });
    expect(memory.windowMembers([windowKeyOf(4, 0)])).toEqual([]);
  });

  it('refuses a rowid twice, a place outside the key range and a bad shape, and writes nothing', () => {
    const memory = new MemoryLexicalIndex({ fields: ['body'], windows: shape });
    memory.insertMany([{ rowid: block + 1, block: 1, tokens: { body: ['alpha'] } }]);
    expect(() => memory.insertMany([{ rowid: block + 2, block: 1, tokens: { body: ['bravo'] } }, { rowid: block + 1, block: 1, tokens: { body: ['bravo'] } }])).toThrow(MemoryValidationError);
    expect(() => memory.insertMany([{ rowid: block + 3, block: 1, tokens: { body: ['bravo'] }, sequence: { id: 2 ** 21, position: 0 } }])).toThrow(/sequence\.id/);
    expect(memory.totals(1).documents).toBe(1);
    expect(memory.has(block + 2)).toBe(false);
    expect(() => new MemoryLexicalIndex({ fields: ['body'], windows: { field: 'body', size: 2, stride: 3 } })).toThrow(MemoryConfigurationError);
  });
});
