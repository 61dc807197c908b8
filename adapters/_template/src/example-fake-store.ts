import { isDeepStrictEqual } from 'node:util';
import type { ExampleFilters, ExampleRecord, ExampleRecordInput } from './example-api-schemas';

/**
 * The state of the fake Example API (test-only, not part of the build): records by id, a
 * deterministic clock, keyset pages and a small lexical search, so tests need no network.
 */
export interface ExampleFakeStore {
  /** Every stored record, oldest first. */
  readonly records: ReadonlyMap<string, ExampleRecord>;
  /** Stores a record for a tenant and returns it. */
  create(tenant: string, input: ExampleRecordInput): ExampleRecord;
  /** The record with this id in this tenant, or undefined. */
  find(tenant: string, id: string): ExampleRecord | undefined;
  /** Deletes the record; false when the tenant has no such record. */
  delete(tenant: string, id: string): boolean;
  /** Applies a patch (metadata keys are merged) and returns the updated record. */
  update(
    tenant: string,
    id: string,
    patch: { text?: string; summary?: string; metadata?: Record<string, unknown> },
  ): ExampleRecord | undefined;
  /** One keyset page after `after` (a record id), oldest first. */
  page(
    tenant: string,
    filters: ExampleFilters,
    pageSize: number,
    after: string | undefined,
  ): { records: ExampleRecord[]; last: string | undefined };
  /** The records matching at least one query term, best first. */
  search(
    tenant: string,
    filters: ExampleFilters,
    query: string,
    topK: number,
  ): Array<{ record: ExampleRecord; score: number }>;
  /** Removes every record and restarts the clock. */
  clear(): void;
}

const stopwords = new Set([
  'a',
  'an',
  'and',
  'are',
  'for',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'what',
  'which',
  'with',
]);
const clockStart = Date.UTC(2025, 0, 1);

/** Lower-case terms, split on anything that is not a letter or a digit. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term !== '' && !stopwords.has(term));
}

function matchesFilters(record: ExampleRecord, filters: ExampleFilters): boolean {
  const labelsMatch = Object.entries(filters.labels).every(([name, value]) => record.labels[name] === value);
  const metadataMatch = Object.entries(filters.metadata ?? {}).every(
    ([key, value]) =>
      record.metadata !== null && Object.hasOwn(record.metadata, key) && isDeepStrictEqual(record.metadata[key], value),
  );
  return labelsMatch && metadataMatch;
}

/** Creates an empty store. */
export function createExampleFakeStore(): ExampleFakeStore {
  const records = new Map<string, ExampleRecord>();
  let sequence = 0;
  const tick = () => new Date(clockStart + ++sequence * 1000).toISOString();
  const visible = (tenant: string, filters: ExampleFilters) =>
    [...records.values()].filter((record) => record.tenant === tenant && matchesFilters(record, filters));

  return {
    records,
    create(tenant, input) {
      const now = tick();
      const record: ExampleRecord = {
        id: `rec_${String(sequence).padStart(6, '0')}`,
        tenant,
        text: input.text,
        summary: input.summary ?? null,
        labels: { ...input.labels },
        metadata: input.metadata === undefined ? null : structuredClone(input.metadata),
        source: input.source === undefined ? null : structuredClone(input.source),
        created_at: now,
        updated_at: now,
      };
      records.set(record.id, record);
      return structuredClone(record);
    },
    find(tenant, id) {
      const record = records.get(id);
      return record === undefined || record.tenant !== tenant ? undefined : structuredClone(record);
    },
    delete(tenant, id) {
      const record = records.get(id);
      if (record === undefined || record.tenant !== tenant) return false;
      return records.delete(id);
    },
    update(tenant, id, patch) {
      const record = records.get(id);
      if (record === undefined || record.tenant !== tenant) return undefined;
      if (patch.text !== undefined) record.text = patch.text;
      if (patch.summary !== undefined) record.summary = patch.summary;
      if (patch.metadata !== undefined) record.metadata = { ...record.metadata, ...structuredClone(patch.metadata) };
      record.updated_at = tick();
      return structuredClone(record);
    },
    page(tenant, filters, pageSize, after) {
      // Ids grow with creation time, so "after this id" is a stable keyset position even
      // when records before it are deleted between pages.
      const matching = visible(tenant, filters).filter((record) => after === undefined || record.id > after);
      const page = matching.slice(0, pageSize).map((record) => structuredClone(record));
      return { records: page, last: matching.length > pageSize ? page.at(-1)?.id : undefined };
    },
    search(tenant, filters, query, topK) {
      const queryTerms = [...new Set(tokenize(query))];
      return visible(tenant, filters)
        .map((record) => {
          const terms = new Set(tokenize(`${record.text} ${record.summary ?? ''}`));
          const matched = queryTerms.filter((term) => terms.has(term)).length;
          return { record: structuredClone(record), score: queryTerms.length === 0 ? 0 : matched / queryTerms.length };
        })
        .filter((result) => result.score > 0)
        .sort((left, right) => right.score - left.score)
        .slice(0, topK);
    },
    clear() {
      records.clear();
      sequence = 0;
    },
  };
}
