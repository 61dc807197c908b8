import { isWellFormedText, jsonValueSchema, MemoryValidationError, type JsonValue } from '@memplane/core';
import { z } from 'zod';
import { canonicalHash } from '../support/canonical-hash';
import type { ResourceRow, ScopeValues, SegmentRow } from '../store/engine-store-rows';
import { binaryIssues, bytesHash, mediaKindOf, normalizeMediaType, resourceBytes, resourceDataSchema } from './multimodal-input';

/** Text every backend can store: well-formed Unicode (a lone surrogate cannot be written as UTF-8). */
const text = z.string().max(2_000_000).refine(isWellFormedText, 'must be well-formed Unicode (no lone surrogates)');
const metadata = z.record(z.string(), jsonValueSchema).optional();
/** The caller's provenance reference, copied onto every item as its `origin`. */
const origin = jsonValueSchema.optional();
const isoDate = z.iso.datetime({ offset: true }).optional();

/** The resource metadata key where the engine keeps what `preprocess_multimodal` did; callers cannot set it. */
export const mediaMetadataKey = 'memplane:media';

/**
 * A file or text to memorize: inline content (optionally paged), the bytes of an image, audio
 * file or PDF (`data` with its `mimeType`), or a URI. A URI may go with `data` as its location.
 */
export const resourceInputSchema = z.strictObject({
  type: z.literal('resource'),
  content: text.optional(),
  pages: z.array(text).max(10_000).optional(),
  data: resourceDataSchema.optional(),
  uri: z.string().url().max(4096).optional(),
  mimeType: z.string().max(255).optional(),
  metadata,
  origin,
});

/** A conversation to memorize: turns in order. */
export const conversationInputSchema = z.strictObject({
  type: z.literal('conversation'),
  messages: z
    .array(z.strictObject({ role: z.string().min(1).max(100).refine(isWellFormedText, 'must be well-formed Unicode'), content: text, occurredAt: isoDate }))
    .min(1)
    .max(10_000),
  metadata,
  origin,
});

/** What `memorize` takes (§6.1: resource | conversation). */
export const memorizeInputSchema = z.discriminatedUnion('type', [resourceInputSchema, conversationInputSchema]);
/** A resource or conversation to memorize. */
export type MemorizeInput = z.infer<typeof memorizeInputSchema>;

/** Checks memorize input, naming the bad field. */
export function parseMemorizeInput(input: unknown): MemorizeInput {
  const parsed = memorizeInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new MemoryValidationError({
      target: 'memorize input',
      issues: parsed.error.issues.map((issue) => ({ path: ['input', ...issue.path].join('.'), message: issue.message })),
    });
  }
  const value = parsed.data;
  const issues = value.type === 'resource' ? resourceIssues(value) : [];
  if (value.metadata !== undefined && Object.hasOwn(value.metadata, mediaMetadataKey)) issues.push([`metadata.${mediaMetadataKey}`, 'is kept by the engine and cannot be set']);
  if (issues.length > 0) throw new MemoryValidationError({ target: 'memorize input', issues: issues.map(([path, message]) => ({ path: `input.${path}`, message })) });
  return value;
}

function resourceIssues(value: z.infer<typeof resourceInputSchema>): Array<[string, string]> {
  const sources = (['content', 'pages', 'data'] as const).filter((key) => value[key] !== undefined);
  if (sources.length === 0 && value.uri === undefined) return [['content', 'give content, pages, data or a uri']];
  if (value.data !== undefined && sources.length > 1) return [['data', `give data alone, not with ${sources.filter((key) => key !== 'data').join(' or ')}`]];
  return value.data === undefined ? [] : binaryIssues(value.data, value.mimeType);
}

/** The idempotency hash of a resource kept unprocessed: distinct from the processed one, so a later memorize with a model processes it. */
export function unprocessedHash(contentHash: string): string {
  return canonicalHash({ unprocessed: contentHash });
}

/** Splits text into paragraph segments with their character spans. */
function paragraphSpans(content: string): Array<{ text: string; start: number; end: number }> {
  const spans: Array<{ text: string; start: number; end: number }> = [];
  const pattern = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g;
  for (const match of content.matchAll(pattern)) {
    const start = match.index;
    const textPart = match[0];
    if (textPart.trim() !== '') spans.push({ text: textPart, start, end: start + textPart.length });
  }
  return spans;
}

/** The resource row and segments for an input (not yet written). */
export function buildResource(input: MemorizeInput, scope: ScopeValues, ids: { newId(prefix: string): string }, now: string, pipelineRevision: number): { resource: ResourceRow; segments: SegmentRow[] } {
  const id = ids.newId('res');
  const segments: SegmentRow[] = [];
  let content: string | undefined;
  let modality: ResourceRow['modality'];
  if (input.type === 'conversation') {
    modality = 'conversation';
    let offset = 0;
    const parts: string[] = [];
    input.messages.forEach((message, ordinal) => {
      const line = `${message.role}: ${message.content}`;
      segments.push({ id: `${id}_s${ordinal}`, resourceId: id, scope, ordinal, text: message.content, start: offset + message.role.length + 2, end: offset + line.length, role: message.role, occurredAt: message.occurredAt });
      parts.push(line);
      offset += line.length + 1;
    });
    content = parts.join('\n');
  } else if (input.pages !== undefined) {
    modality = 'document';
    let offset = 0;
    input.pages.forEach((page, index) => {
      segments.push({ id: `${id}_s${index}`, resourceId: id, scope, ordinal: index, text: page, start: offset, end: offset + page.length, page: index + 1 });
      offset += page.length + 1;
    });
    content = input.pages.join('\n');
  } else if (input.data !== undefined) {
    const kind = mediaKindOf(input.mimeType);
    modality = kind === 'image' ? 'image' : kind === 'audio' ? 'audio' : 'document';
  } else {
    modality = input.content === undefined ? 'uri' : 'document';
    content = input.content;
    if (content !== undefined) {
      paragraphSpans(content).forEach((span, ordinal) => segments.push({ id: `${id}_s${ordinal}`, resourceId: id, scope, ordinal, ...span }));
    }
  }
  const identity =
    input.type === 'conversation'
      ? { modality, messages: input.messages.map(({ role, content: said }) => [role, said]) }
      : input.data !== undefined
        ? // The same bytes are the same resource wherever they were found: the URI is only a location.
          { modality, bytes: bytesHash(resourceBytes(input.data)), mimeType: normalizeMediaType(input.mimeType ?? '') }
        : { modality, content, uri: input.uri, mimeType: input.mimeType };
  const resource: ResourceRow = {
    id,
    scope,
    modality,
    content,
    uri: input.type === 'resource' ? input.uri : undefined,
    mimeType: input.type === 'resource' ? (input.data !== undefined && input.mimeType !== undefined ? normalizeMediaType(input.mimeType) : input.mimeType) : 'text/plain',
    metadata: (input.metadata ?? {}) as Record<string, JsonValue>,
    contentHash: canonicalHash(identity),
    pipelineRevision,
    createdAt: now,
    updatedAt: now,
  };
  return { resource, segments };
}
