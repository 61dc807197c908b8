import { classifySentence, memoryKinds, noteFallback, splitSentences } from '@memplane/core/rules';
import { z } from 'zod';
import { generateStructured, type CallUsage } from '../profiles/model-calls';
import type { ResolvedLlmProfile } from '../profiles/llm-profiles';
import type { ItemEvidence, ItemKind, SegmentRow } from '../store/engine-store-rows';
import { acceptsCandidate, safeQuote } from '../taxonomy/item-governance';

/** One extracted memory point before governance and dedupe. */
export interface ItemCandidate {
  readonly kind: ItemKind;
  readonly text: string;
  readonly confidence: number;
  readonly evidence: ItemEvidence;
  readonly expiresAt?: string | undefined;
}

/** Roles that are not names: their turns are kept without a speaker prefix. */
const genericRoles = new Set(['user', 'assistant', 'system', 'tool', 'human', 'ai', 'model']);

function speakerPrefix(segment: SegmentRow): string {
  return segment.role !== undefined && !genericRoles.has(segment.role.toLowerCase()) ? `${segment.role}: ` : '';
}

/**
 * The zero-config extractor: each sentence of each segment becomes a candidate of the kind its cue
 * names (the shared classifier of `@memplane/core/rules`), with its exact character span as
 * evidence. Candidates below their kind's threshold are dropped; a resource with text but no
 * sentence long enough is kept as one note.
 */
export function extractByRules(resourceId: string, segments: readonly SegmentRow[]): ItemCandidate[] {
  const candidates: ItemCandidate[] = [];
  const seen = new Set<string>();
  for (const segment of segments) {
    let cursor = 0;
    for (const sentence of splitSentences(segment.text)) {
      const offset = segment.text.indexOf(sentence, cursor);
      const start = offset < 0 ? undefined : segment.start + offset;
      if (offset >= 0) cursor = offset + sentence.length;
      const text = `${speakerPrefix(segment)}${sentence}`;
      if (seen.has(text)) continue;
      seen.add(text);
      const { kind, confidence } = classifySentence(sentence);
      if (!acceptsCandidate(kind, confidence)) continue;
      const evidence: ItemEvidence = { resourceId, segmentId: segment.id, start, end: start === undefined ? undefined : start + sentence.length, page: segment.page, quote: safeQuote(sentence) };
      candidates.push({ kind, text, confidence, evidence });
    }
  }
  const whole = segments.map((segment) => segment.text).join('\n').trim();
  if (candidates.length === 0 && whole !== '') {
    const first = segments[0];
    candidates.push({ ...noteFallback, text: whole.slice(0, 4000), evidence: { resourceId, segmentId: first?.id, start: first?.start, end: first === undefined ? undefined : first.start + Math.min(whole.length, 4000), quote: safeQuote(whole.slice(0, 200)) } });
  }
  return candidates;
}

const extractionSchema = z.object({
  items: z
    .array(
      z.object({
        kind: z.enum(memoryKinds),
        text: z.string().min(1).max(2000),
        confidence: z.number().min(0).max(1),
        segment: z.number().int().min(0),
        quote: z.string().max(1000).optional(),
        expiresAt: z.string().optional(),
      }),
    )
    .max(200),
});

const extractionSystem = [
  'You extract durable memory items from a resource for an AI assistant.',
  `Each item has a kind (${memoryKinds.join(', ')}), a self-contained text, a confidence from 0 to 1,`,
  'the number of the segment it comes from, and a short quote of that segment as evidence.',
  'Todos may have an ISO 8601 expiresAt. Skip chit-chat. Never invent facts.',
].join(' ');

/** Extraction with the profile's model; same candidate shape and thresholds as the rules. */
export async function extractWithModel(
  profile: ResolvedLlmProfile,
  resourceId: string,
  segments: readonly SegmentRow[],
  signal: AbortSignal,
): Promise<{ candidates: ItemCandidate[]; usage: CallUsage }> {
  const prompt = segments.map((segment) => `[${segment.ordinal}]${segment.role === undefined ? '' : ` ${segment.role}:`} ${segment.text}`).join('\n');
  const { value, usage } = await generateStructured(profile, { schema: extractionSchema, system: extractionSystem, prompt, signal, operation: 'extract_items' });
  const candidates: ItemCandidate[] = [];
  for (const item of value.items) {
    if (!acceptsCandidate(item.kind, item.confidence)) continue;
    const segment = segments.find((entry) => entry.ordinal === item.segment);
    const expiresAt = item.expiresAt !== undefined && !Number.isNaN(Date.parse(item.expiresAt)) ? new Date(item.expiresAt).toISOString() : undefined;
    candidates.push({
      kind: item.kind,
      text: item.text,
      confidence: item.confidence,
      expiresAt,
      evidence: { resourceId, segmentId: segment?.id, start: segment?.start, end: segment?.end, page: segment?.page, quote: safeQuote(item.quote) },
    });
  }
  return { candidates, usage };
}
