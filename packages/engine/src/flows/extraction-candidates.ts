import { classifySentence, isAssistantRole, isSmallTalk, memoryKinds, noteFallback, speakerPrefix, splitSentences, type AssistantTurns } from '@memplane/rules';
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

/** How the rules extract: what they do with assistant turns (`skip` by default). */
export interface RuleExtractionOptions {
  readonly assistantTurns: AssistantTurns;
}

/**
 * The zero-config extractor: each sentence of each segment becomes a candidate of the kind its cue
 * names (the shared classifier of `@memplane/rules`), with its exact character span as
 * evidence. Candidates below their kind's threshold are dropped, small talk among them; segments
 * of an assistant (role `assistant`, `ai` or `model`) are skipped unless `assistantTurns` is
 * `keep`. A resource with text but no sentence long enough is kept as one note, unless that text
 * is small talk.
 */
export function extractByRules(resourceId: string, segments: readonly SegmentRow[], options: RuleExtractionOptions = { assistantTurns: 'skip' }): ItemCandidate[] {
  const candidates: ItemCandidate[] = [];
  const seen = new Set<string>();
  const kept = options.assistantTurns === 'keep' ? segments : segments.filter((segment) => !isAssistantRole(segment.role));
  let sentences = 0;
  for (const segment of kept) {
    let cursor = 0;
    for (const sentence of splitSentences(segment.text)) {
      sentences += 1;
      const offset = segment.text.indexOf(sentence, cursor);
      const start = offset < 0 ? undefined : segment.start + offset;
      if (offset >= 0) cursor = offset + sentence.length;
      const text = `${speakerPrefix(segment.role)}${sentence}`;
      if (seen.has(text)) continue;
      seen.add(text);
      const { kind, confidence } = classifySentence(sentence);
      if (!acceptsCandidate(kind, confidence)) continue;
      const evidence: ItemEvidence = { resourceId, segmentId: segment.id, start, end: start === undefined ? undefined : start + sentence.length, page: segment.page, quote: safeQuote(sentence) };
      candidates.push({ kind, text, confidence, evidence });
    }
  }
  const whole = kept.map((segment) => segment.text).join('\n').trim();
  if (sentences === 0 && whole !== '' && !isSmallTalk(whole)) {
    const first = kept[0];
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
