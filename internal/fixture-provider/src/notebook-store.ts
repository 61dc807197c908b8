import { randomBytes } from 'node:crypto';
import { normalizeScope, scopeMatches, type MemoryRecordInput, type MemoryScope, type MemorySourceRef } from '@memplane/core';

/** One page of a notebook, as it keeps it. */
export interface NotebookPage {
  /** `record:1`, `record:2`, … in write order, never reused. */
  id: string;
  /** The number in the id: the keyset of every listing. */
  position: number;
  scope: MemoryScope;
  text: string;
  summary?: string;
  metadata?: Record<string, unknown>;
  source?: MemorySourceRef;
  createdAt: string;
  updatedAt: string;
}

/** A notebook: the pages every adapter over it shares, like a provider's backend. */
export interface Notebook {
  /** The secret of the cursors of every adapter over this notebook, so peers accept each other's. */
  readonly cursorSecret: string;
  /** Writes pages; each is a copy of what was given. */
  write(scope: MemoryScope, records: MemoryRecordInput[], source: MemorySourceRef | undefined, at: string): NotebookPage[];
  /** The pages a request with this scope may see, in write order. */
  visible(scope: MemoryScope): NotebookPage[];
  /** The page with this id when the scope may see it. */
  find(id: string, scope: MemoryScope): NotebookPage | undefined;
  /** Tears a page out; true when it was there. */
  remove(id: string): boolean;
}

/** Creates an empty notebook. */
export function createNotebook(): Notebook {
  const pages = new Map<string, NotebookPage>();
  let sequence = 0;
  const cursorSecret = randomBytes(32).toString('hex');
  return {
    cursorSecret,
    write(scope, records, source, at) {
      const normalized = normalizeScope(scope);
      return records.map((record) => {
        sequence += 1;
        const page: NotebookPage = {
          id: `record:${sequence}`,
          position: sequence,
          scope: { ...normalized },
          text: record.text,
          ...(record.summary === undefined ? {} : { summary: record.summary }),
          ...(record.metadata === undefined ? {} : { metadata: structuredClone(record.metadata) }),
          ...(source === undefined ? {} : { source: { ...source } }),
          createdAt: at,
          updatedAt: at,
        };
        pages.set(page.id, page);
        return page;
      });
    },
    visible: (scope) => [...pages.values()].filter((page) => scopeMatches(page.scope, scope)),
    find(id, scope) {
      const page = pages.get(id);
      return page !== undefined && scopeMatches(page.scope, scope) ? page : undefined;
    },
    remove: (id) => pages.delete(id),
  };
}

// Notebooks by name, for the life of the process: adapters given the same name are peers.
const named = new Map<string, Notebook>();

/** The notebook of that name, created on first use. */
export function notebookNamed(name: string): Notebook {
  let notebook = named.get(name);
  if (notebook === undefined) {
    notebook = createNotebook();
    named.set(name, notebook);
  }
  return notebook;
}
