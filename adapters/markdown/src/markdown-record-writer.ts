import type { MemoryScope } from '@memplane/core';
import { buildRecordSection, mergeDuplicate, type NewRecord } from './markdown-record-builder';
import type { MarkdownRepository } from './markdown-repository';
import type { MemoryRecordSection } from './markdown-section';

/**
 * Writes records of one scope; call it under the write lock. A record whose exact text is already
 * live in the scope (or earlier in the same batch) is merged into it instead of piling up.
 * Returns the record id of every input, in order.
 */
export function writeRecords(repository: MarkdownRepository, scope: MemoryScope, records: NewRecord[], at: string): string[] {
  const ids: string[] = [];
  const fresh: MemoryRecordSection[] = [];
  const freshByText = new Map<string, MemoryRecordSection>();
  const updates = new Map<string, Map<string, NewRecord[]>>();
  const duplicates = repository.index.findDuplicates(scope, records.map((record) => record.text), at);
  for (const record of records) {
    const inBatch = freshByText.get(record.text);
    if (inBatch !== undefined) {
      const merged = mergeDuplicate(inBatch, record, at);
      if (merged !== undefined) Object.assign(inBatch, merged);
      ids.push(inBatch.id);
      continue;
    }
    const existingId = duplicates.get(record.text);
    const existing = existingId === undefined ? undefined : repository.index.record(existingId);
    if (existing !== undefined) {
      const perFile = updates.get(existing.file) ?? new Map<string, NewRecord[]>();
      perFile.set(existing.section.id, [...(perFile.get(existing.section.id) ?? []), record]);
      updates.set(existing.file, perFile);
      ids.push(existing.section.id);
      continue;
    }
    const section = buildRecordSection(scope, record, at);
    fresh.push(section);
    freshByText.set(record.text, section);
    ids.push(section.id);
  }
  for (const [file, perId] of updates) {
    const merged = new Map<string, MemoryRecordSection>();
    for (const [id, writes] of perId) {
      const existing = repository.index.record(id);
      if (existing === undefined) continue;
      let current = existing.section;
      for (const write of writes) current = mergeDuplicate(current, write, at) ?? current;
      if (current !== existing.section) merged.set(id, current);
    }
    // A rewrite is only worth its fsync when a merge changed something.
    if (merged.size > 0) {
      repository.rewriteFile(file, (sections) => sections.map((section) => (section.type === 'memory' ? (merged.get(section.id) ?? section) : section)));
    }
  }
  if (fresh.length > 0) repository.appendSections(scope, 'records', fresh, at);
  return ids;
}
