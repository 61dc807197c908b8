import Database from 'better-sqlite3';
import { preparePrivateSqliteFile } from './markdown-private-file';

/**
 * The lock that says "this process has the index open", so no other process ever deletes or
 * replaces index files under it.
 *
 * It is an empty SQLite database, `.memplane/index.lock`, kept in rollback-journal mode and never
 * written. Every open adapter holds a read transaction on it for as long as it is open: a SHARED
 * lock, which the operating system releases if the process dies. Replacing the index files (the
 * only case is an index that is not a database or is damaged) needs an EXCLUSIVE lock on it, which
 * SQLite grants only when no other process holds the shared one; while a process waits for it,
 * new openers wait too (SQLite's PENDING lock), so nobody opens files that are about to go.
 * SQLite's locks were chosen over a lock file of our own because Node has no `flock`, and these are
 * released by the kernel on SIGKILL.
 */
export class MarkdownRootLock {
  private readonly database: Database.Database;
  private shared = false;

  private constructor(path: string, timeoutMs: number) {
    preparePrivateSqliteFile(path);
    this.database = new Database(path);
    this.database.pragma(`busy_timeout = ${timeoutMs}`);
  }

  /** Opens the lock database and takes the shared lock; throws SQLite's busy error if an exclusive holder outlasts `timeoutMs`. */
  static acquireShared(path: string, timeoutMs: number): MarkdownRootLock {
    const lock = new MarkdownRootLock(path, timeoutMs);
    try {
      lock.takeShared();
    } catch (error) {
      lock.database.close();
      throw error;
    }
    return lock;
  }

  /**
   * Runs `work` while no other process has the index open: gives up the shared lock, takes the
   * exclusive one (waiting up to the busy timeout, then throwing SQLite's busy error), runs
   * `work`, and takes the shared lock back. The caller re-checks, under the lock, whatever made it
   * ask, since another process may have fixed it while this one waited.
   */
  withExclusive<Result>(work: () => Result): Result {
    this.releaseShared();
    try {
      this.database.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      this.takeShared();
      throw error;
    }
    try {
      return work();
    } finally {
      this.database.exec('COMMIT');
      this.takeShared();
    }
  }

  /** Releases the lock and closes its database. */
  close(): void {
    if (this.database.open) this.database.close();
    this.shared = false;
  }

  private takeShared(): void {
    this.database.exec('BEGIN');
    try {
      // A read is what takes the SHARED lock of a deferred transaction.
      this.database.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
    this.shared = true;
  }

  private releaseShared(): void {
    if (!this.shared) return;
    this.database.exec('COMMIT');
    this.shared = false;
  }
}
