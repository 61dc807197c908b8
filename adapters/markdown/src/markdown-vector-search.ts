import { normalizeScope, scopeMatches, type MemoryScope, type MemoryUsage } from '@memplane/core';
import type { MarkdownEmbedder } from './markdown-embedder';
import { EmbeddingCache } from './markdown-embedding-cache';
import { fuseByReciprocalRank, fuseByWeight, type RankedEntry } from '@memplane/rules';
import { matchesMetadataFilter } from './markdown-metadata-filter';
import { statePath } from './markdown-paths';
import type { MarkdownRepository } from './markdown-repository';
import { searchLexical, type SearchOptions } from './markdown-search';
import type { MemoryRecordSection } from './markdown-section';
import type { FusionMethod } from './markdown-settings';

/** The most texts sent in one embedding call. */
const embeddingBatchSize = 128;

/** A fused hit, with what each retriever said about it. */
export interface FusedHit {
  section: MemoryRecordSection;
  score: number;
  lexicalScore?: number;
  lexicalRank?: number;
  vectorScore?: number;
  vectorRank?: number;
}

/**
 * Vectors in the index's sqlite-vec table, partitioned by company and searched exactly (no ANN),
 * then fused with BM25. Vectors are derived like the rest of the index; the embeddings behind them
 * are cached by content hash, so a rebuild re-embeds nothing.
 */
export class MarkdownVectorSearch {
  private readonly cache: EmbeddingCache;
  private readonly queryVectors = new Map<string, Float32Array>();
  private readonly statements;

  constructor(
    private readonly repository: MarkdownRepository,
    private readonly embedder: MarkdownEmbedder,
    private readonly fusion: FusionMethod,
  ) {
    this.cache = new EmbeddingCache(statePath(repository.options.root, 'embeddings.sqlite'), embedder.modelId, repository.options.lockTimeoutMs);
    const database = repository.database;
    repository.write(() => this.createTables());
    repository.afterReset = () => this.createTables();
    this.statements = {
      missing: database.prepare(
        'SELECT r.rowid AS rowid, r.section AS section FROM records AS r WHERE r.searchable = 1 AND NOT EXISTS (SELECT 1 FROM vector_rows AS v WHERE v.rowid = r.rowid)',
      ),
      insertVector: database.prepare('INSERT INTO vectors (rowid, company_id, embedding) VALUES (?, ?, ?)'),
      insertRow: database.prepare('INSERT OR IGNORE INTO vector_rows (rowid) VALUES (?)'),
      nearest: database.prepare(
        'SELECT v.rowid AS rowid, v.distance AS distance, r.section AS section FROM vectors AS v JOIN records AS r ON r.rowid = v.rowid WHERE v.embedding MATCH ? AND v.k = ? AND v.company_id = ? ORDER BY v.distance',
      ),
    };
    repository.write(() => this.fillFromCache());
  }

  /** Creates the vector tables for this embedder, dropping those of another model or dimension. */
  private createTables(): void {
    const database = this.repository.database;
    const meta = database.prepare("SELECT value FROM meta WHERE key = 'vector_model'").get() as { value: string } | undefined;
    const identity = `${this.embedder.modelId}#${this.embedder.dimensions}`;
    if (meta?.value !== identity) {
      database.exec('DROP TABLE IF EXISTS vectors; DROP TABLE IF EXISTS vector_rows;');
      database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('vector_model', ?)").run(identity);
    }
    database.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS vectors USING vec0(company_id TEXT partition key, embedding float[${this.embedder.dimensions}] distance_metric=cosine);
      CREATE TABLE IF NOT EXISTS vector_rows (rowid INTEGER PRIMARY KEY);
    `);
    this.repository.index.vectorTablesPresent = true;
  }

  /** Embeds the texts not cached yet; call it before a write so a failing embedder writes nothing. */
  async prepare(texts: string[]): Promise<MemoryUsage[]> {
    const missing = [...new Set(texts)].filter((text) => this.cache.get(text) === undefined);
    const usage: MemoryUsage[] = [];
    for (let start = 0; start < missing.length; start += embeddingBatchSize) {
      const batch = missing.slice(start, start + embeddingBatchSize);
      const result = await this.embedder.embed(batch);
      this.cache.putAll(batch.map((text, index) => [text, Float32Array.from(result.embeddings[index] ?? [])]));
      if (result.usage !== undefined) usage.push(result.usage);
    }
    return usage;
  }

  /** Stores the vectors of records written just now (and any others whose embedding is cached). Call it under the write lock. */
  storePrepared(_ids: string[]): void {
    this.fillFromCache();
  }

  /** Searches both ways and fuses. Records indexed from hand edits are embedded first. */
  async hybridSearch(scope: MemoryScope, query: string, options: SearchOptions): Promise<{ hits: FusedHit[]; usage: MemoryUsage[] }> {
    const usage = await this.embedMissing();
    const queryVector = await this.embedQuery(query, usage);
    const candidates = Math.max(options.limit * 4, 40);
    const lexicalHits = searchLexical(this.repository.database, scope, query, { ...options, limit: candidates });
    const vectorHits = this.nearest(normalizeScope(scope), queryVector, candidates, options);
    const sections = new Map<string, MemoryRecordSection>();
    const lexical: RankedEntry[] = lexicalHits.map((hit) => {
      sections.set(hit.section.id, hit.section);
      return { id: hit.section.id, score: hit.score };
    });
    const vector: RankedEntry[] = vectorHits.map((hit) => {
      sections.set(hit.section.id, hit.section);
      return { id: hit.section.id, score: hit.similarity };
    });
    const fused = this.fusion === 'rrf' ? fuseByReciprocalRank(lexical, vector) : fuseByWeight(lexical, vector);
    const hits = [...fused.entries()]
      .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
      .slice(0, options.limit)
      .map(([id, score]): FusedHit => {
        const lexicalIndex = lexical.findIndex((entry) => entry.id === id);
        const vectorIndex = vector.findIndex((entry) => entry.id === id);
        return {
          section: sections.get(id) as MemoryRecordSection,
          score,
          ...(lexicalIndex < 0 ? {} : { lexicalScore: lexical[lexicalIndex]?.score, lexicalRank: lexicalIndex + 1 }),
          ...(vectorIndex < 0 ? {} : { vectorScore: vector[vectorIndex]?.score, vectorRank: vectorIndex + 1 }),
        };
      });
    return { hits, usage };
  }

  /**
   * Query vectors are kept in a small in-memory cache of this adapter only: persisting every query
   * text would grow the cache without bound and keep what people asked on disk.
   */
  private async embedQuery(query: string, usage: MemoryUsage[]): Promise<Float32Array> {
    const cached = this.queryVectors.get(query);
    if (cached !== undefined) return cached;
    const result = await this.embedder.embed([query]);
    if (result.usage !== undefined) usage.push(result.usage);
    const vector = Float32Array.from(result.embeddings[0] ?? []);
    this.queryVectors.set(query, vector);
    if (this.queryVectors.size > 256) this.queryVectors.delete(this.queryVectors.keys().next().value as string);
    return vector;
  }

  /**
   * Drops the cached embeddings of forgotten texts (their vectors in the index went with their
   * rows) and truncates the cache's log; false when a reader of another process blocked that.
   */
  forgetTexts(texts: ReadonlyArray<string>): boolean {
    return this.cache.forget(texts);
  }

  /** Closes the embedding cache. */
  close(): void {
    this.cache.close();
  }

  private nearest(scope: MemoryScope, vector: Float32Array, limit: number, options: SearchOptions): Array<{ section: MemoryRecordSection; similarity: number }> {
    const found: Array<{ section: MemoryRecordSection; similarity: number }> = [];
    // Narrow scopes and filters drop rows after the company partition, so widen k until enough survive.
    for (let k = limit * 2 + 10; ; k = Math.min(k * 4, 4096)) {
      const rows = this.statements.nearest.all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), k, scope.companyId) as Array<{ distance: number; section: string }>;
      found.length = 0;
      for (const row of rows) {
        const section = JSON.parse(row.section) as MemoryRecordSection;
        if (!scopeMatches(section.scope, scope) || !matchesMetadataFilter(section.metadata, options.metadataFilter)) continue;
        if (section.expiresAt !== undefined && section.expiresAt <= options.now) continue;
        found.push({ section, similarity: 1 - row.distance });
        if (found.length === limit) return found;
      }
      if (rows.length < k || k === 4096) return found;
    }
  }

  private async embedMissing(): Promise<MemoryUsage[]> {
    const missing = this.statements.missing.all() as Array<{ section: string }>;
    if (missing.length === 0) return [];
    const usage = await this.prepare(missing.map((row) => (JSON.parse(row.section) as MemoryRecordSection).text));
    this.repository.write(() => this.fillFromCache());
    return usage;
  }

  private fillFromCache(): void {
    for (const row of this.statements.missing.all() as Array<{ rowid: number; section: string }>) {
      const section = JSON.parse(row.section) as MemoryRecordSection;
      const vector = this.cache.get(section.text);
      if (vector === undefined || vector.length !== this.embedder.dimensions) continue;
      this.statements.insertVector.run(BigInt(row.rowid), section.scope.companyId, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      this.statements.insertRow.run(BigInt(row.rowid));
    }
  }
}
