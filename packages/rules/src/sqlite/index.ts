/**
 * The lexical index of memplane's SQLite backends: FTS5 fed the analyser's tokens, BM25 scored
 * exactly from the query terms' postings, with corpus statistics kept on write, and neighbour
 * windows scored from their members' postings.
 */
export { analysedTokenizer, SqliteLexicalIndex, type LexicalDocument, type SqliteLexicalIndexOptions } from './sqlite-lexical-index';
export type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like';
