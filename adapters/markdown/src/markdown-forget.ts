import type Database from 'better-sqlite3';
import { MemoryConflictError, scopeMatches, type MemoryRecordHandle, type MemoryScope } from '@memplane/core';
import type { MarkdownRepository } from './markdown-repository';
import { contentHashOf } from './markdown-section-parser';
import type { MarkdownSection, ResourceSection } from './markdown-section';
import { scopeKeyOf } from './markdown-scope-tokens';

/** What a forget erased: every version's text, for the resources and the embedding cache. */
export interface ErasedRecords {
  /** The text of every erased version. */
  texts: Set<string>;
}

/**
 * Makes SQLite overwrite deleted content with zeros (freed cells and freelist pages), so a row
 * that is deleted leaves no copy in the file. Without it, every rewrite of a markdown file (a
 * duplicate merge, a correction) left the old rows' text in free space, where a later `forget`
 * could not reach it. Connection-level, so every connection of every process sets it.
 */
export function enableSecureDelete(database: Database.Database): void {
  database.pragma('secure_delete = ON');
}

/**
 * Copies every page of the write-ahead log into the database file and truncates the log to zero
 * bytes, so the old page images (which hold erased text) are gone from the WAL too. Returns false
 * when a reader of another process holding an older snapshot blocked the truncation past the busy
 * timeout.
 */
export function truncateWriteAheadLog(database: Database.Database): boolean {
  const [result] = database.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  return result === undefined || result.busy === 0;
}

/** The retryable error of a forget whose erased pages are still in a write-ahead log. */
export function unfinishedForgetError(): MemoryConflictError {
  return new MemoryConflictError({
    message:
      'The records were erased, but another process was reading the index or the embedding cache, so a write-ahead log still holds old pages; call forget again to finish.',
  });
}

/** The ids of a record and every version linked to it by `supersedes`, within one file. */
function versionChain(sections: MarkdownSection[], id: string): Set<string> {
  const chain = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const section of sections) {
      if (section.type !== 'memory' || chain.has(section.id)) continue;
      if ((section.supersedes !== undefined && chain.has(section.supersedes)) || (section.supersededBy !== undefined && chain.has(section.supersededBy))) {
        chain.add(section.id);
        grew = true;
      }
    }
  }
  return chain;
}

/**
 * A resource with every passage of the erased records cut out, wherever it occurs, inside longer
 * words too: the residue may suffer when a very short text is forgotten, the promise may not.
 * A resource the records cite as
 * evidence, in which none of their texts or quotes can be found (an extractor that paraphrased),
 * cannot be proven clean, so it is dropped whole; so is one left blank.
 */
function redactResource(section: ResourceSection, passages: string[], cited: boolean): ResourceSection[] {
  let text = section.text;
  for (const passage of passages) if (text.includes(passage)) text = text.split(passage).join('');
  if ((cited && text === section.text) || text.trim() === '') return [];
  return text === section.text ? [section] : [{ ...section, text, contentHash: contentHashOf(text) }];
}

/**
 * Erases records and every version of them from the markdown, then cuts their texts and evidence
 * quotes out of the captured resources of their scope (the resources they cite, and any other of
 * the scope that holds one of the texts). Call it under the write lock.
 */
export function eraseRecords(repository: MarkdownRepository, handles: ReadonlyArray<MemoryRecordHandle>, scope: MemoryScope): ErasedRecords {
  const byFile = new Map<string, string[]>();
  for (const handle of handles) {
    const found = repository.index.record(handle.providerRecordId);
    if (found === undefined || !scopeMatches(found.section.scope, scope)) continue;
    byFile.set(found.file, [...(byFile.get(found.file) ?? []), found.section.id]);
  }
  const texts = new Set<string>();
  const passagesByScope = new Map<string, { scope: MemoryScope; passages: Set<string>; cited: Set<string> }>();
  for (const [file, ids] of byFile) {
    repository.rewriteFile(file, (sections) => {
      const erased = new Set<string>();
      for (const id of ids) for (const linked of versionChain(sections, id)) erased.add(linked);
      for (const section of sections) {
        if (section.type !== 'memory' || !erased.has(section.id)) continue;
        texts.add(section.text);
        const key = scopeKeyOf(section.scope);
        const entry = passagesByScope.get(key) ?? { scope: section.scope, passages: new Set<string>(), cited: new Set<string>() };
        entry.passages.add(section.text);
        for (const evidence of section.evidence ?? []) {
          entry.cited.add(evidence.resourceId);
          if (evidence.quote !== undefined && evidence.quote.trim() !== '') entry.passages.add(evidence.quote);
        }
        passagesByScope.set(key, entry);
      }
      return sections.filter((section) => !erased.has(section.id));
    });
  }
  for (const { scope: recordScope, passages, cited } of passagesByScope.values()) {
    const scopeKey = scopeKeyOf(recordScope);
    // Longest first, so a quote inside a longer text never leaves the rest of that text behind.
    const ordered = [...passages].sort((left, right) => right.length - left.length);
    const byResourceFile = new Map<string, Set<string>>();
    for (const { id, file } of repository.index.resourcesHolding(recordScope.companyId, [...cited], ordered)) {
      byResourceFile.set(file, (byResourceFile.get(file) ?? new Set<string>()).add(id));
    }
    for (const [file, ids] of byResourceFile) {
      repository.rewriteFile(file, (sections) =>
        sections.flatMap((section) =>
          section.type === 'resource' && ids.has(section.id) && scopeKeyOf(section.scope) === scopeKey
            ? redactResource(section, ordered, cited.has(section.id))
            : [section],
        ),
      );
    }
  }
  if (texts.size > 0) repository.index.purgeDeletedTerms();
  return { texts };
}
