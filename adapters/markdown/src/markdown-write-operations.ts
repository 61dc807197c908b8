import { performance } from 'node:perf_hooks';
import {
  MemoryNotFoundError,
  normalizeScope,
  scopeMatches,
  stableStringify,
  type MemoryAdapter,
  type MemoryCaptureRequest,
  type MemoryCaptureResult,
  type MemoryRecordWriteRequest,
  type MemoryRecordWriteResult,
  type MemoryUsage,
} from '@memplane/core';
import { type ConversationTurn, conversationTurnsOf, meetsKindThreshold, piiRiskOf } from '@memplane/rules';
import { localUsage, takeWarnings, type MarkdownContext } from './markdown-context';
import { eraseRecords, truncateWriteAheadLog, unfinishedForgetError } from './markdown-forget';
import { createId } from './markdown-ids';
import type { NewRecord } from './markdown-record-builder';
import { writeRecords } from './markdown-record-writer';
import { contentHashOf } from './markdown-section-parser';
import type { MemoryRecordSection, ResourceSection } from './markdown-section';
import { markdownAdapterKey } from './markdown-snippet';

type WriteOperations = Pick<MemoryAdapter, 'upsertRecords' | 'capture' | 'correct' | 'forget'>;

function handleOf(id: string) {
  return { providerKey: markdownAdapterKey, providerRecordId: id };
}

/** The text a capture stores: the payload text, or its object as stable JSON. */
function payloadText(request: MemoryCaptureRequest): string {
  const text = request.payload.text;
  return text !== undefined && text.trim() !== '' ? text : stableStringify(request.payload.object ?? {});
}

/**
 * The turns of a captured conversation: a payload without text whose object is exactly
 * `{ messages: [{ role, content }] }`. Its residue is one `role: content` line per turn.
 */
function conversationOf(request: MemoryCaptureRequest): ConversationTurn[] | undefined {
  const text = request.payload.text;
  return text !== undefined && text.trim() !== '' ? undefined : conversationTurnsOf(request.payload.object);
}

/** Creates the write operations of the adapter. */
export function createWriteOperations(context: MarkdownContext): WriteOperations {
  const { repository, settings } = context;

  async function embedBeforeWrite(texts: string[]): Promise<MemoryUsage[]> {
    // Embeddings are computed before anything is written, so a failing embedder writes nothing.
    return context.vectors === undefined ? [] : context.vectors.prepare(texts);
  }

  return {
    async upsertRecords(request: MemoryRecordWriteRequest): Promise<MemoryRecordWriteResult> {
      const scope = normalizeScope(request.scope);
      const embeddingUsage = await embedBeforeWrite(request.records.map((record) => record.text));
      const started = performance.now();
      const at = settings.now();
      const records: NewRecord[] = request.records.map((record) => ({
        text: record.text,
        ...(record.summary === undefined ? {} : { summary: record.summary }),
        ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
        ...(request.source === undefined ? {} : { source: request.source }),
      }));
      const ids = repository.write(() => {
        const written = writeRecords(repository, scope, records, at);
        context.vectors?.storePrepared(written);
        return written;
      });
      return {
        records: ids.map(handleOf),
        usage: [localUsage(markdownAdapterKey, performance.now() - started, { records: ids.length }), ...embeddingUsage],
        warnings: takeWarnings(context),
      };
    },

    async capture(request: MemoryCaptureRequest): Promise<MemoryCaptureResult> {
      const scope = normalizeScope(request.scope);
      const text = payloadText(request);
      const base = {
        source: request.source,
        ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
      };
      if (request.mode === 'capture_record') {
        const usage = await embedBeforeWrite([text]);
        const started = performance.now();
        const at = settings.now();
        const ids = repository.write(() => {
          const written = writeRecords(repository, scope, [{ text, ...base }], at);
          context.vectors?.storePrepared(written);
          return written;
        });
        return { records: ids.map(handleOf), usage: [localUsage(markdownAdapterKey, performance.now() - started), ...usage], warnings: takeWarnings(context) };
      }
      const turns = conversationOf(request);
      const residue = turns === undefined ? text : turns.map((turn) => `${turn.role}: ${turn.content}`).join('\n');
      const resourceAt = settings.now();
      const resource: ResourceSection = {
        type: 'resource',
        id: createId('r', Date.parse(resourceAt)),
        scope,
        createdAt: resourceAt,
        text: residue,
        contentHash: contentHashOf(residue),
        source: request.source,
        ...(request.payload.mimeType === undefined ? {} : { mimeType: request.payload.mimeType }),
        ...(request.payload.metadata === undefined ? {} : { metadata: request.payload.metadata }),
      };
      if (context.jobs !== undefined) {
        const resourceId = repository.write(() => storeResource(context, resource));
        const job = context.jobs.submit({ scope, resourceId, source: request.source, hookKind: request.hook?.hookKind, metadata: request.metadata });
        return { jobs: [job], usage: [localUsage(markdownAdapterKey, 0)], warnings: takeWarnings(context) };
      }
      const extracted = await context.extractor.extract({
        text: residue,
        scope,
        source: request.source,
        ...(turns === undefined ? {} : { messages: turns.map(({ role, content }) => ({ role, content })) }),
      });
      const items = extracted.items.filter((item) => meetsKindThreshold(item.kind, item.confidence));
      const usage = [...(extracted.usage ?? []), ...(await embedBeforeWrite(items.map((item) => item.text)))];
      const started = performance.now();
      const at = settings.now();
      const ids = repository.write(() => {
        const resourceId = storeResource(context, resource);
        const written = writeRecords(repository, scope, items.map((item) => ({
          text: item.text,
          kind: item.kind,
          confidence: item.confidence,
          evidence: [{ resourceId, ...(item.quote === undefined ? {} : { quote: item.quote }) }],
          ...(item.expiresAt === undefined ? {} : { expiresAt: item.expiresAt }),
          ...base,
        })), at);
        context.vectors?.storePrepared(written);
        return written;
      });
      return { records: ids.map(handleOf), usage: [localUsage(markdownAdapterKey, performance.now() - started, { extractor: context.extractor.name }), ...usage], warnings: takeWarnings(context) };
    },

    async correct(handle, patch, scope) {
      const found = repository.index.record(handle.providerRecordId);
      if (found === undefined || !scopeMatches(found.section.scope, scope) || found.section.supersededBy !== undefined) {
        throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
      }
      const old = found.section;
      const newText = patch.text ?? old.text;
      const usage = await embedBeforeWrite([newText]);
      const started = performance.now();
      const at = settings.now();
      const replacement: MemoryRecordSection = {
        ...old,
        id: createId('m', Date.parse(at)),
        text: newText,
        version: old.version + 1,
        updatedAt: at,
        supersedes: old.id,
        ...(patch.summary === undefined ? {} : { summary: patch.summary }),
        ...(patch.metadata === undefined ? {} : { metadata: { ...old.metadata, ...patch.metadata } }),
        ...(patch.reason === undefined ? {} : { reason: patch.reason }),
      };
      delete replacement.supersededBy;
      // The corrected content passes the PII review of a new record: raw PII in what the patch
      // brings sends the new version to review, whatever the old version's status was.
      replacement.piiRisk = piiRiskOf(replacement);
      if (piiRiskOf({ text: patch.text, summary: patch.summary, metadata: patch.metadata }) >= 2 && replacement.status === 'approved') {
        replacement.status = 'pending';
      }
      repository.write(() => {
        repository.rewriteFile(found.file, (sections) =>
          sections.flatMap((section) =>
            section.type === 'memory' && section.id === old.id
              ? [{ ...section, status: 'superseded' as const, supersededBy: replacement.id, updatedAt: at }, replacement]
              : [section],
          ),
        );
        context.vectors?.storePrepared([replacement.id]);
      });
      return {
        record: handleOf(replacement.id),
        supersedes: handleOf(old.id),
        usage: [localUsage(markdownAdapterKey, performance.now() - started), ...usage],
        warnings: takeWarnings(context),
      };
    },

    async forget(handles, scope) {
      const started = performance.now();
      const erased = repository.write(() => eraseRecords(repository, handles, scope));
      // The cache is keyed by content hash; a text still live elsewhere is simply embedded again.
      // Both logs are truncated on every call, so a forget retried after a conflict finishes.
      const cacheClean = context.vectors?.forgetTexts([...erased.texts]) ?? true;
      const indexClean = truncateWriteAheadLog(repository.database);
      if (!cacheClean || !indexClean) throw unfinishedForgetError();
      return { usage: [localUsage(markdownAdapterKey, performance.now() - started)], warnings: takeWarnings(context) };
    },
  };
}

/** Stores a resource, or finds the identical one already captured in the scope. Call it under the write lock. */
function storeResource(context: MarkdownContext, resource: ResourceSection): string {
  const existing = context.repository.index.findDuplicateResource(resource.scope, resource.text);
  if (existing !== undefined) return existing;
  context.repository.appendSections(resource.scope, 'resources', [resource], resource.createdAt);
  return resource.id;
}
