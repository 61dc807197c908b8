import Database from 'better-sqlite3';
import { enableSecureDelete, truncateWriteAheadLog } from './markdown-forget';
import { preparePrivateSqliteFile } from './markdown-private-file';
import { contentHashOf } from './markdown-section-parser';

/**
 * Embeddings by model and content hash, in `.memplane/embeddings.sqlite` (mode 0600). It is kept
 * apart from the index so rebuilding the index never pays for the same embeddings twice.
 */
export class EmbeddingCache {
  private readonly database: Database.Database;
  private readonly getStatement;
  private readonly putStatement;
  private readonly deleteStatement;

  constructor(path: string, private readonly modelId: string, busyTimeoutMs = 10_000) {
    preparePrivateSqliteFile(path);
    this.database = new Database(path);
    this.database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.database.pragma('journal_mode = WAL');
    enableSecureDelete(this.database);
    this.database.exec('CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash))');
    this.getStatement = this.database.prepare('SELECT vector FROM embeddings WHERE model = ? AND hash = ?');
    this.putStatement = this.database.prepare('INSERT OR REPLACE INTO embeddings (model, hash, vector) VALUES (?, ?, ?)');
    this.deleteStatement = this.database.prepare('DELETE FROM embeddings WHERE hash = ?');
  }

  /**
   * Drops the vectors of texts under every model, for `forget`: a vector can be inverted back to
   * much of its text, and the hash confirms a guess of it. Then truncates the write-ahead log (also
   * when there is nothing to drop, so a retried forget finishes); false when a reader blocked that.
   */
  forget(texts: ReadonlyArray<string>): boolean {
    if (texts.length > 0) {
      this.database.transaction(() => {
        for (const text of texts) this.deleteStatement.run(contentHashOf(text));
      })();
    }
    return truncateWriteAheadLog(this.database);
  }

  /** The cached vector of a text, if any. */
  get(text: string): Float32Array | undefined {
    const row = this.getStatement.get(this.modelId, contentHashOf(text)) as { vector: Buffer } | undefined;
    if (row === undefined) return undefined;
    return new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength));
  }

  /** Caches vectors of texts. */
  putAll(entries: ReadonlyArray<[string, Float32Array]>): void {
    this.database.transaction(() => {
      for (const [text, vector] of entries) this.putStatement.run(this.modelId, contentHashOf(text), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    })();
  }

  /** Closes the cache. */
  close(): void {
    if (this.database.open) this.database.close();
  }
}
