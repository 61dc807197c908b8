import { randomBytes } from 'node:crypto';
import {
  normalizeScope,
  scopeMatches,
  stableStringify,
  type MemoryExtractionJobStatus,
  type MemoryHookKind,
  type MemoryScope,
  type MemorySourceRef,
} from '@memplane/core';
import { definedFields } from './memory-defined-fields';
import { tokenize } from '@memplane/rules';
import type { MemoryRecordVersion, MemoryStore, MemoryStoreRecord } from './memory-store';

/*
 * The private state of a MemoryStore and the only code that mutates it. Records and jobs live
 * in arrays by ascending sequence and are never removed (forgetting leaves a tombstone), so an
 * array index is a sequence minus one: that is what makes keyset paging and ids stable.
 */

/** The mutable content of a record; undefined once the record is forgotten. */
export interface RecordContent {
  text: string;
  summary?: string;
  metadata?: Record<string, unknown>;
  source?: MemorySourceRef;
  updatedAt: string;
  version: number;
  history: MemoryRecordVersion[];
  /** The lexical terms of text and summary, computed once per version. */
  terms: string[];
}

/** A record in the store. `records[sequence - 1]` is the record with that sequence. */
export interface StoredRecord {
  readonly id: string;
  readonly sequence: number;
  readonly scope: MemoryScope;
  readonly scopeKey: string;
  readonly createdAt: string;
  content: RecordContent | undefined;
  forgottenAt?: string;
}

/** A record that has not been forgotten. */
export type LiveRecord = StoredRecord & { content: RecordContent };

/** An extraction job in the store. `jobs[sequence - 1]` is the job with that sequence. */
export interface StoredJob {
  readonly id: string;
  readonly sequence: number;
  readonly scope: MemoryScope;
  readonly text: string;
  readonly source: MemorySourceRef;
  readonly hookKind?: MemoryHookKind;
  readonly metadata?: Record<string, unknown>;
  readonly submittedAt: string;
  status: MemoryExtractionJobStatus;
  /** Polls that advanced the job since it was (re)queued. */
  polls: number;
  /** Set when the extraction_failure fault was in force at submission or retry. */
  failOnRun: boolean;
  startedAt?: string;
  finishedAt?: string;
  error?: string;
}

/** What a write puts in the store. */
export interface RecordWrite {
  scope: MemoryScope;
  text: string;
  summary?: string;
  metadata?: Record<string, unknown>;
  source?: MemorySourceRef;
}

/** What `correct` changes. */
export interface RecordCorrection {
  text?: string;
  summary?: string;
  metadata?: Record<string, unknown>;
  reason?: string;
}

const rewriteReason = 'rewritten by a write with the same text';

function clone<Value>(value: Value): Value {
  return value === undefined ? value : structuredClone(value);
}

function termsOf(text: string, summary: string | undefined): string[] {
  return tokenize(summary === undefined ? text : `${text}\n${summary}`);
}

/** The private state behind a {@link MemoryStore}. Only this package's modules reach it. */
export class MemoryStoreState {
  /** The default cursor secret, shared by every adapter over this store. */
  readonly cursorSecret: Uint8Array = randomBytes(32);
  /** Every record ever written, tombstones included, by ascending sequence. */
  readonly records: StoredRecord[] = [];
  /** Every extraction job, by ascending sequence. */
  readonly jobs: StoredJob[] = [];
  private readonly recordsById = new Map<string, StoredRecord>();
  private readonly jobsById = new Map<string, StoredJob>();
  /** Live records by scope and text, for deduplication. */
  private readonly byScopeAndText = new Map<string, Set<LiveRecord>>();

  /** The live record with this id if it is visible in `scope`. */
  findRecord(id: string, scope: MemoryScope): LiveRecord | undefined {
    const record = this.recordsById.get(id);
    return record !== undefined && isVisible(record, scope) ? record : undefined;
  }

  /** The live records visible in `scope`, oldest first. */
  visibleRecords(scope: MemoryScope): LiveRecord[] {
    return this.records.filter((record): record is LiveRecord => isVisible(record, scope));
  }

  /**
   * Writes a record. A live record with the same scope and the identical text is updated
   * instead: the summary, metadata and source the write sets replace the stored ones (a new
   * version when anything changed; nothing at all when nothing did), and that record is returned.
   */
  writeRecord(write: RecordWrite, at: string): LiveRecord {
    const scope = normalizeScope(write.scope);
    const scopeKey = stableStringify(scope);
    const duplicate = this.findDuplicate(scopeKey, write.text);
    if (duplicate !== undefined) {
      const next = {
        summary: write.summary ?? duplicate.content.summary,
        metadata: write.metadata ?? duplicate.content.metadata,
        source: write.source ?? duplicate.content.source,
      };
      const current = duplicate.content;
      const before = { summary: current.summary, metadata: current.metadata, source: current.source };
      if (stableStringify(next) !== stableStringify(before)) {
        this.replaceContent(duplicate, { text: current.text, ...clone(next) }, at, rewriteReason);
      }
      return duplicate;
    }
    const sequence = this.records.length + 1;
    const record: LiveRecord = {
      id: `mem_${String(sequence).padStart(6, '0')}`,
      sequence,
      scope,
      scopeKey,
      createdAt: at,
      content: {
        text: write.text,
        ...definedFields({ summary: write.summary, metadata: clone(write.metadata), source: clone(write.source) }),
        updatedAt: at,
        version: 1,
        history: [],
        terms: termsOf(write.text, write.summary),
      },
    };
    this.records.push(record);
    this.recordsById.set(record.id, record);
    this.index(record);
    return record;
  }

  /** Applies a correction: the current version goes to history, metadata keys merge. */
  correctRecord(record: LiveRecord, correction: RecordCorrection, at: string): void {
    const current = record.content;
    this.replaceContent(
      record,
      {
        text: correction.text ?? current.text,
        summary: correction.summary ?? current.summary,
        metadata: correction.metadata === undefined ? current.metadata : { ...current.metadata, ...clone(correction.metadata) },
        source: current.source,
      },
      at,
      correction.reason,
    );
  }

  /** Tombstones a record: its content and history are erased and it never reads again. */
  forgetRecord(record: LiveRecord, at: string): void {
    this.unindex(record);
    const tombstone: StoredRecord = record;
    tombstone.content = undefined;
    tombstone.forgottenAt = at;
  }

  /** Adds an extraction job and returns it. */
  addJob(job: Omit<StoredJob, 'id' | 'sequence'>): StoredJob {
    const sequence = this.jobs.length + 1;
    const stored: StoredJob = { ...job, id: `job_${String(sequence).padStart(6, '0')}`, sequence };
    this.jobs.push(stored);
    this.jobsById.set(stored.id, stored);
    return stored;
  }

  /** The job with this id if it is visible in `scope`. */
  findJob(id: string, scope: MemoryScope): StoredJob | undefined {
    const job = this.jobsById.get(id);
    return job !== undefined && scopeMatches(job.scope, scope) ? job : undefined;
  }

  /** A copy of a record as stored, for {@link MemoryStore.inspectRecord}. */
  inspect(id: string): MemoryStoreRecord | undefined {
    const record = this.recordsById.get(id);
    if (record === undefined) return undefined;
    const base = { id: record.id, scope: { ...record.scope }, createdAt: record.createdAt };
    if (record.content === undefined) return { state: 'forgotten', ...base, forgottenAt: record.forgottenAt ?? record.createdAt };
    const { terms: _terms, ...content } = record.content;
    return { state: 'live', ...base, ...clone(content) };
  }

  private replaceContent(
    record: LiveRecord,
    next: Pick<RecordContent, 'text' | 'summary' | 'metadata' | 'source'>,
    at: string,
    reason: string | undefined,
  ): void {
    const current = record.content;
    const previous: MemoryRecordVersion = {
      version: current.version,
      text: current.text,
      ...definedFields({ summary: current.summary, metadata: current.metadata, source: current.source }),
      updatedAt: current.updatedAt,
      replacedAt: at,
      ...definedFields({ reason }),
    };
    this.unindex(record);
    record.content = {
      text: next.text,
      ...definedFields({ summary: next.summary, metadata: next.metadata, source: next.source }),
      updatedAt: at,
      version: current.version + 1,
      history: [...current.history, previous],
      terms: termsOf(next.text, next.summary),
    };
    this.index(record);
  }

  private findDuplicate(scopeKey: string, text: string): LiveRecord | undefined {
    let oldest: LiveRecord | undefined;
    for (const record of this.byScopeAndText.get(`${scopeKey}\n${text}`) ?? []) {
      if (oldest === undefined || record.sequence < oldest.sequence) oldest = record;
    }
    return oldest;
  }

  private index(record: LiveRecord): void {
    const key = `${record.scopeKey}\n${record.content.text}`;
    const entries = this.byScopeAndText.get(key) ?? new Set<LiveRecord>();
    entries.add(record);
    this.byScopeAndText.set(key, entries);
  }

  private unindex(record: LiveRecord): void {
    const key = `${record.scopeKey}\n${record.content.text}`;
    const entries = this.byScopeAndText.get(key);
    entries?.delete(record);
    if (entries?.size === 0) this.byScopeAndText.delete(key);
  }
}

/** Whether a stored record is live and visible to a request with `scope`. */
export function isVisible(record: StoredRecord, scope: MemoryScope): record is LiveRecord {
  return record.content !== undefined && scopeMatches(record.scope, scope);
}
