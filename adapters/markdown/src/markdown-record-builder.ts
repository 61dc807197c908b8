import type { MemoryScope, MemorySourceRef } from '@memplane/core';
import { classifySentence, initialStatus, isMemoryKind, meetsKindThreshold, type MemoryKind, piiRiskOf } from '@memplane/rules';
import { createId } from './markdown-ids';
import type { MemoryEvidence, MemoryRecordSection } from './markdown-section';

/** What a new record is made from. */
export interface NewRecord {
  text: string;
  summary?: string;
  metadata?: Record<string, unknown>;
  source?: MemorySourceRef;
  /** The kind, when an extractor decided it. */
  kind?: MemoryKind;
  /** The confidence, when an extractor decided it. */
  confidence?: number;
  evidence?: MemoryEvidence[];
  expiresAt?: string;
}

function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** When a todo expires: the extractor's date, else `metadata.expires_at` (or `expiresAt`). */
function expiryOf(record: NewRecord): string | undefined {
  return record.expiresAt ?? isoDate(record.metadata?.expires_at) ?? isoDate(record.metadata?.expiresAt);
}

/**
 * The kind and confidence of a curated record: `metadata.kind` and `metadata.confidence` when the
 * caller set valid ones, otherwise the rule classifier's kind (when its cue is confident enough)
 * and full confidence, since the caller curated it.
 */
function curatedKind(record: NewRecord): { kind: MemoryKind; confidence: number } {
  const metadataKind = record.metadata?.kind;
  const metadataConfidence = record.metadata?.confidence;
  const confidence =
    record.confidence ??
    (typeof metadataConfidence === 'number' && metadataConfidence >= 0 && metadataConfidence <= 1 ? metadataConfidence : 1);
  if (record.kind !== undefined) return { kind: record.kind, confidence };
  if (isMemoryKind(metadataKind)) return { kind: metadataKind, confidence };
  const classified = classifySentence(record.text);
  return { kind: meetsKindThreshold(classified.kind, classified.confidence) ? classified.kind : 'note', confidence };
}

/** Builds the section of a new record: kind, confidence, PII risk and status by the taxonomy's workflow. */
export function buildRecordSection(scope: MemoryScope, record: NewRecord, at: string): MemoryRecordSection {
  const { kind, confidence } = curatedKind(record);
  const piiRisk = piiRiskOf(record);
  const expiresAt = kind === 'todo' ? expiryOf(record) : undefined;
  const section: MemoryRecordSection = {
    type: 'memory',
    id: createId('m', Date.parse(at)),
    scope,
    kind,
    status: initialStatus(confidence, piiRisk),
    confidence,
    piiRisk,
    version: 1,
    createdAt: at,
    updatedAt: at,
    text: record.text,
  };
  if (record.summary !== undefined) section.summary = record.summary;
  if (record.source !== undefined) section.source = record.source;
  if (record.metadata !== undefined) section.metadata = record.metadata;
  if (record.evidence !== undefined) section.evidence = record.evidence;
  if (expiresAt !== undefined) section.expiresAt = expiresAt;
  if (kind === 'fact') section.useCount = 0;
  return section;
}

/**
 * Merges a write into the existing record with the same text: the summary, metadata and source
 * it sets replace the stored ones, evidence accumulates, and a `fact` counts one more use.
 * Returns the merged section, or undefined when nothing changed.
 */
export function mergeDuplicate(existing: MemoryRecordSection, write: NewRecord, at: string): MemoryRecordSection | undefined {
  const merged: MemoryRecordSection = { ...existing };
  let changed = false;
  const replace = <Key extends 'summary' | 'metadata' | 'source'>(key: Key, value: MemoryRecordSection[Key] | undefined) => {
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(existing[key])) {
      merged[key] = value;
      changed = true;
    }
  };
  replace('summary', write.summary);
  replace('metadata', write.metadata);
  replace('source', write.source);
  const replacedSummary = merged.summary !== existing.summary ? merged.summary : undefined;
  const replacedMetadata = merged.metadata !== existing.metadata ? merged.metadata : undefined;
  if (replacedSummary !== undefined || replacedMetadata !== undefined) {
    // New content a reader will see passes the same PII review as a new record: raw PII in what
    // the merge brings sends the record back to review, even if a person approved it before.
    const added = piiRiskOf({ summary: replacedSummary, metadata: replacedMetadata });
    merged.piiRisk = piiRiskOf(merged);
    if (added >= 2 && merged.status === 'approved') merged.status = 'pending';
  }
  const expiresAt = existing.kind === 'todo' ? expiryOf(write) : undefined;
  if (expiresAt !== undefined && expiresAt !== existing.expiresAt) {
    merged.expiresAt = expiresAt;
    changed = true;
  }
  if (write.evidence !== undefined) {
    const known = new Set((existing.evidence ?? []).map((entry) => entry.resourceId));
    const added = write.evidence.filter((entry) => !known.has(entry.resourceId));
    if (added.length > 0) {
      merged.evidence = [...(existing.evidence ?? []), ...added];
      changed = true;
    }
  }
  if (existing.kind === 'fact') {
    merged.useCount = (existing.useCount ?? 0) + 1;
    changed = true;
  }
  if (!changed) return undefined;
  merged.updatedAt = at;
  return merged;
}
