import type { MemorySnippet } from '@memplane/core';
import type { MemoryRecordSection } from './markdown-section';

/** The key of this adapter; every handle it issues carries it. */
export const markdownAdapterKey = 'markdown';

/** A record section as the contract returns it. Internal fields (kind, status) stay in the markdown. */
export function toSnippet(section: MemoryRecordSection, score?: number): MemorySnippet {
  return {
    handle: { providerKey: markdownAdapterKey, providerRecordId: section.id },
    text: section.text,
    ...(score === undefined ? {} : { score }),
    ...(section.summary === undefined ? {} : { summary: section.summary }),
    ...(section.source === undefined ? {} : { source: section.source }),
    ...(section.metadata === undefined ? {} : { metadata: section.metadata }),
    scope: section.scope,
    createdAt: section.createdAt,
    updatedAt: section.updatedAt,
  };
}
