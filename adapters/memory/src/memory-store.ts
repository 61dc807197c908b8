import { MemoryConfigurationError, type MemoryScope, type MemorySourceRef } from '@memplane/core';
import { MemoryStoreState } from './memory-store-state';

/** One earlier version of a record, kept when the record changed. */
export interface MemoryRecordVersion {
  /** The version number it had (the first write is version 1). */
  version: number;
  /** Its text. */
  text: string;
  /** Its summary, when it had one. */
  summary?: string;
  /** Its metadata, when it had any. */
  metadata?: Record<string, unknown>;
  /** Its source, when it had one. */
  source?: MemorySourceRef;
  /** When this version was written (ISO 8601). */
  updatedAt: string;
  /** When the next version replaced it (ISO 8601). */
  replacedAt: string;
  /** Why it was replaced: the correction's `reason`, or a note for a rewrite with the same text. */
  reason?: string;
}

/** A record as the store holds it, read with {@link MemoryStore.inspectRecord}. */
export interface MemoryStoreLiveRecord {
  /** Always `live`: the record can be read. */
  state: 'live';
  /** The record id, which is also the handle's `providerRecordId`. */
  id: string;
  /** The normalized scope it was written under. */
  scope: MemoryScope;
  /** The current text. */
  text: string;
  /** The current summary. */
  summary?: string;
  /** The current metadata. */
  metadata?: Record<string, unknown>;
  /** The current source. */
  source?: MemorySourceRef;
  /** When the record was created (ISO 8601). */
  createdAt: string;
  /** When the record last changed (ISO 8601). */
  updatedAt: string;
  /** The current version, 1 for a record that never changed. */
  version: number;
  /** Every earlier version, oldest first. */
  history: MemoryRecordVersion[];
}

/** The tombstone left by `forget`: the content and history are erased, the id is never reused. */
export interface MemoryStoreForgottenRecord {
  /** Always `forgotten`. */
  state: 'forgotten';
  /** The record id. */
  id: string;
  /** The normalized scope it was written under. */
  scope: MemoryScope;
  /** When the record was created (ISO 8601). */
  createdAt: string;
  /** When it was forgotten (ISO 8601). */
  forgottenAt: string;
}

/** What {@link MemoryStore.inspectRecord} returns. */
export type MemoryStoreRecord = MemoryStoreLiveRecord | MemoryStoreForgottenRecord;

/**
 * The backing state of in-memory adapters: records, extraction jobs, id sequences and the
 * cursor secret. Adapters created with the same store are peers, like two processes over one
 * database. The state itself is private; the only way in is through an adapter, or
 * `inspectRecord` for tests and debugging.
 */
export interface MemoryStore {
  /**
   * Reads a record as stored, bypassing scope, including its version history and forgotten
   * tombstones. Returns a copy, or undefined for an id the store never issued. This is a
   * backend view for tests and debugging, not part of the memory contract.
   */
  inspectRecord(id: string): MemoryStoreRecord | undefined;
}

const states = new WeakMap<MemoryStore, MemoryStoreState>();

/** Creates an empty store. Pass it as `store` to several adapters to make them peers. */
export function createMemoryStore(): MemoryStore {
  const state = new MemoryStoreState();
  const store: MemoryStore = Object.freeze({ inspectRecord: (id: string) => state.inspect(id) });
  states.set(store, state);
  return store;
}

/** Whether a value is a store made by {@link createMemoryStore}. */
export function isMemoryStore(value: unknown): value is MemoryStore {
  return typeof value === 'object' && value !== null && states.has(value as MemoryStore);
}

/** The private state of a store made by {@link createMemoryStore}. */
export function stateOf(store: MemoryStore): MemoryStoreState {
  const state = states.get(store);
  if (state === undefined) throw new MemoryConfigurationError({ message: 'Not a store made by createMemoryStore().' });
  return state;
}
