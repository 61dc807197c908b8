import type { MemoryAdapter, MemoryRecordHandle, MemoryScope, MemorySnippet, MemorySourceRef, MemoryProviderDefinition } from '@memplane/core';

/**
 * How a faulty provider answers:
 * - `honest`: filters by the requested company and returns each record's scope and source;
 * - `stripped`: ignores the scope and returns every record without scope or source;
 * - `forged`: ignores the scope and stamps the caller's scope and company on every record;
 * - `profile-leak`: filters records honestly, but its free-text summaries quote every company.
 */
export type LeakVariant = 'honest' | 'stripped' | 'forged' | 'profile-leak';

/** All variants, for `describe.each`. */
export const leakVariants: readonly LeakVariant[] = ['honest', 'stripped', 'forged', 'profile-leak'];

interface StoredRecord {
  id: string;
  text: string;
  scope: MemoryScope;
  source?: MemorySourceRef;
}

/** A leaky provider shared by every binding (one backend for all companies), and what it was asked. */
export interface LeakyBackend {
  factory: MemoryProviderDefinition;
  records: StoredRecord[];
  /** Every handle a get, forget or correct reached the provider with. */
  handlesSeen: Array<{ operation: 'get' | 'forget' | 'correct'; handle: MemoryRecordHandle }>;
  /** Puts a record straight into the backend, as a provider's own extraction would (never written through the service). */
  plant(record: Omit<StoredRecord, 'id'>): string;
}

/** A raw `MemoryAdapter` (not built with `defineMemoryAdapter`) that leaks the way `variant` says. */
export function createLeakyBackend(variant: LeakVariant): LeakyBackend {
  const records: StoredRecord[] = [];
  const handlesSeen: LeakyBackend['handlesSeen'] = [];
  let sequence = 0;
  const add = (record: Omit<StoredRecord, 'id'>) => {
    sequence += 1;
    const id = `rec-${sequence}`;
    records.push({ id, ...record });
    return id;
  };
  const visible = (scope: MemoryScope) =>
    variant === 'honest' || variant === 'profile-leak' ? records.filter((record) => record.scope.companyId === scope.companyId) : records;
  const present = (record: StoredRecord, scope: MemoryScope): MemorySnippet => {
    const handle = { providerKey: 'leaky', providerRecordId: record.id };
    if (variant === 'stripped') return { handle, text: record.text };
    if (variant === 'forged') {
      return { handle, text: record.text, scope: { ...scope }, source: { kind: 'manual_note', companyId: scope.companyId } };
    }
    return { handle, text: record.text, scope: record.scope, ...(record.source === undefined ? {} : { source: record.source }) };
  };
  const everything = () => records.map((record) => record.text).join(' | ');
  const find = (handle: MemoryRecordHandle, scope: MemoryScope) => visible(scope).find((record) => record.id === handle.providerRecordId);

  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: 'leaky',
    capabilities: { profile: true, correction: true },
    async capture(request) {
      const id = add({ text: request.payload.text ?? '', scope: request.scope, source: request.source });
      return { records: [{ providerKey: 'leaky', providerRecordId: id }] };
    },
    async upsertRecords(request) {
      return {
        records: request.records.map((input) => ({
          providerKey: 'leaky',
          providerRecordId: add({ text: input.text, scope: request.scope, ...(request.source === undefined ? {} : { source: request.source }) }),
        })),
      };
    },
    async query(request) {
      const snippets = visible(request.scope).map((record) => present(record, request.scope));
      return variant === 'profile-leak' ? { snippets, profileSummary: `Everyone: ${everything()}` } : { snippets };
    },
    async list(request) {
      return { items: visible(request.scope).map((record) => present(record, request.scope)) };
    },
    async get(handle, scope) {
      handlesSeen.push({ operation: 'get', handle });
      const found = find(handle, scope);
      return found === undefined ? null : present(found, scope);
    },
    async forget(handles, scope) {
      for (const handle of handles) {
        handlesSeen.push({ operation: 'forget', handle });
        const index = records.findIndex((record) => record.id === handle.providerRecordId && (variant === 'honest' ? record.scope.companyId === scope.companyId : true));
        if (index >= 0) records.splice(index, 1);
      }
      return {};
    },
    async correct(handle, patch) {
      handlesSeen.push({ operation: 'correct', handle });
      const found = records.find((record) => record.id === handle.providerRecordId);
      if (found !== undefined && patch.text !== undefined) found.text = patch.text;
      return { record: handle };
    },
    async profile(scope) {
      const items = visible(scope).map((record) => present(record, scope));
      return { summary: variant === 'profile-leak' ? `Everyone: ${everything()}` : `${items.length} records`, items };
    },
    getExtractionJob: async () => ({ job: null }),
    listExtractionJobs: async () => ({ items: [] }),
    retryExtractionJob: async () => {
      throw new TypeError('not supported');
    },
    explain: async () => ({ steps: [] }),
  };
  return {
    factory: { providerId: 'leaky', description: `A ${variant} leaky provider (test only).`, capabilities: adapter.capabilities, create: () => adapter },
    records,
    handlesSeen,
    plant: add,
  };
}
