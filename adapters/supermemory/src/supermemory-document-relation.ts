import { MemoryNotFoundError, type MemoryUsage, type MemoryWarning } from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { documentResponseSchema } from './supermemory-api-schemas';
import { decodeRecordMetadata, type DecodedRecordMetadata } from './supermemory-record-metadata';

/**
 * Memory entries extracted from a captured document are related to it; nothing documents
 * that they copy its metadata (the docs describe documents and the memories extracted from
 * them, linked). So an entry that carries no company marker of its own is placed through its
 * source document: the document must be in the company's container and carry this adapter's
 * record metadata, which then stands for the entry (scope, source, record key). An entry that
 * no document places reads as unmarked, and every caller drops it (fail closed).
 */

/** What a memory entry says about where it came from. */
export interface RelatedEntry {
  /** The entry's own metadata (may be missing). */
  metadata?: Record<string, unknown> | null | undefined;
  /** Its source documents' ids (memory list). */
  documentIds?: string[] | null | undefined;
  /** Its source documents with their metadata (search with `include.documents`). */
  documents?: Array<{ id: string; metadata?: Record<string, unknown> | null | undefined }> | null | undefined;
}

/** Decodes entries through their documents, reading each document at most once per operation. */
export interface DocumentRelation {
  /** The record metadata that stands for an entry, and the document that placed it (if any). */
  decode(entry: RelatedEntry, warnings: MemoryWarning[]): Promise<{ decoded: DecodedRecordMetadata; documentId?: string }>;
}

/** Creates the relation of one operation; its document reads are added to `usage`. */
export function createDocumentRelation(context: SupermemoryAdapterContext, companyId: string, usage: MemoryUsage[]): DocumentRelation {
  const containerTag = context.containerTagOf(companyId);
  const read = new Map<string, Promise<DecodedRecordMetadata | undefined>>();

  async function readDocument(documentId: string): Promise<DecodedRecordMetadata | undefined> {
    try {
      const { value, usage: callUsage } = await context.call({ operation: 'get (source document)', resourceId: `doc:${documentId}` }, documentResponseSchema, (options) =>
        context.client.documents.get(documentId, options),
      );
      usage.push(callUsage);
      const tags = value.containerTags;
      // `documents.get` is not scoped by container: the document must name the company's.
      if (tags === null || tags === undefined || !tags.includes(containerTag)) return undefined;
      return decodeRecordMetadata(value.metadata, []);
    } catch (error) {
      if (MemoryNotFoundError.isInstance(error)) return undefined;
      throw error;
    }
  }

  return {
    async decode(entry, warnings) {
      const own = decodeRecordMetadata(entry.metadata, warnings);
      if (own.scope !== undefined) return { decoded: own };
      // Search already restricted the hits to the company's container tag, so the metadata
      // it includes for a hit's documents is read as it stands.
      for (const document of entry.documents ?? []) {
        const decoded = decodeRecordMetadata(document.metadata, []);
        if (decoded.scope !== undefined) return { decoded, documentId: document.id };
      }
      for (const documentId of entry.documentIds ?? []) {
        let pending = read.get(documentId);
        if (pending === undefined) {
          pending = readDocument(documentId);
          read.set(documentId, pending);
        }
        const decoded = await pending;
        if (decoded?.scope !== undefined) return { decoded, documentId };
      }
      return { decoded: own };
    },
  };
}
