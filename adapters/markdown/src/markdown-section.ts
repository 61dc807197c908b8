import type { MemoryScope, MemorySourceRef } from '@memplane/core';
import type { MemoryItemStatus, MemoryKind, PiiRisk } from '@memplane/rules';

/** Where an extracted item came from: the captured resource, and the passage that supports it. */
export interface MemoryEvidence {
  /** The id of the resource section the item was extracted from. */
  resourceId: string;
  /** The passage of the resource that supports the item. */
  quote?: string;
}

/** One memory record as its markdown section holds it. */
export interface MemoryRecordSection {
  /** Always `memory`. */
  type: 'memory';
  /** The stable id, also the heading anchor and the handle's `providerRecordId`. */
  id: string;
  /** The normalized scope the record belongs to. */
  scope: MemoryScope;
  /** The taxonomy kind. */
  kind: MemoryKind;
  /** The review status. */
  status: MemoryItemStatus;
  /** The confidence, 0 to 1. */
  confidence: number;
  /** The PII risk, 0 to 2. */
  piiRisk: PiiRisk;
  /** The version, 1 for a record never corrected. */
  version: number;
  /** When the record (its first version) was created, ISO 8601. */
  createdAt: string;
  /** When this version was written, ISO 8601. */
  updatedAt: string;
  /** The record text. */
  text: string;
  /** A short summary. */
  summary?: string;
  /** Where the record came from. */
  source?: MemorySourceRef;
  /** The caller's metadata, unchanged. */
  metadata?: Record<string, unknown>;
  /** The id of the version this one replaced. */
  supersedes?: string;
  /** The id of the version that replaced this one. */
  supersededBy?: string;
  /** Why this version was written by `correct`. */
  reason?: string;
  /** The resources it was extracted from. */
  evidence?: MemoryEvidence[];
  /** When a `todo` expires, ISO 8601; expired items are not returned by query. */
  expiresAt?: string;
  /** How often a `fact` was observed again or returned by query. */
  useCount?: number;
  /** Field lines this version does not know, kept verbatim when the file is rewritten. */
  extraFields?: Array<[string, string]>;
  /** Lines a person wrote inside the section outside the fields and the text, kept verbatim. */
  notes?: string[];
}

/** One captured resource (raw residue) as its markdown section holds it. */
export interface ResourceSection {
  /** Always `resource`. */
  type: 'resource';
  /** The stable id. */
  id: string;
  /** The normalized scope. */
  scope: MemoryScope;
  /** When it was captured, ISO 8601. */
  createdAt: string;
  /** The captured text. */
  text: string;
  /** The sha256 of the text, hex. */
  contentHash: string;
  /** Where it came from. */
  source?: MemorySourceRef;
  /** The media type of the payload. */
  mimeType?: string;
  /** The caller's metadata. */
  metadata?: Record<string, unknown>;
  /** Field lines this version does not know, kept verbatim. */
  extraFields?: Array<[string, string]>;
  /** Lines a person wrote inside the section, kept verbatim. */
  notes?: string[];
}

/** A section of a markdown memory file. */
export type MarkdownSection = MemoryRecordSection | ResourceSection;

/** The heading word of each section type. */
export const sectionHeadingWords = { memory: 'Memory', resource: 'Resource' } as const;

/** The ids this provider writes and accepts: 1 to 100 letters, digits, `_` and `-`. */
export const sectionIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** The section heading: `## Memory <id>` or `## Resource <id>`. Only matched outside fences. */
export const sectionHeadingPattern = /^## (Memory|Resource) (\S+)\s*$/;
