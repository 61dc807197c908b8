import { isWellFormedText, MemoryInvalidResponseError } from '@memplane/core';
import { z } from 'zod';
import type { MediaSpan, ScopeValues, SegmentRow } from '../store/engine-store-rows';
import type { MediaKind } from './multimodal-input';

/** Most segments one file may yield. */
export const maxMediaSegments = 500;
/** Most characters of one segment, and of all segments of a file together. */
const maxSegmentChars = 20_000;
export const maxDerivedChars = 200_000;
/** Audio longer than a day is not a span a model can honestly cite. */
const maxMediaMs = 86_400_000;
/** The page bound of a PDF whose page objects cannot be counted. */
const maxPdfPages = 10_000;

/** What the model answers: text segments, each with where it lies in the file. */
export const mediaSegmentsSchema = z.object({
  segments: z
    .array(
      z.object({
        source: z.enum(['caption', 'ocr', 'transcript', 'page']),
        text: z.string().min(1).max(maxSegmentChars),
        page: z.number().int().optional(),
        startMs: z.number().int().optional(),
        endMs: z.number().int().optional(),
        speaker: z.string().min(1).max(100).optional(),
      }),
    )
    .max(maxMediaSegments),
});

/** The model's answer, checked against the schema. */
export type MediaSegmentsAnswer = z.infer<typeof mediaSegmentsSchema>;

/** The instructions for each media kind. */
export const mediaInstructions: Readonly<Record<MediaKind, string>> = {
  image: 'Describe the image for a memory store. Answer segments: one "caption" segment describing it, then one "ocr" segment per block of text visible in it, verbatim. No page or time fields.',
  pdf: 'Read the PDF for a memory store. Answer one "page" segment per page with the page\'s text verbatim and its page number from 1 in "page"; add an "ocr" segment with a page number for text only visible in images.',
  audio: 'Transcribe the audio for a memory store. Answer "transcript" segments in order, each with startMs and endMs (milliseconds from the start) and the speaker when known.',
};

const allowedSources: Readonly<Record<MediaKind, ReadonlySet<MediaSpan['source']>>> = {
  image: new Set(['caption', 'ocr']),
  pdf: new Set(['page', 'ocr', 'caption']),
  audio: new Set(['transcript']),
};

function refuse(message: string): never {
  throw new MemoryInvalidResponseError({ message: `preprocess_multimodal: ${message}` });
}

/**
 * Refuses an answer that cites what the file cannot hold: a source of another modality, a page
 * of an image or beyond the PDF's pages, a time span that is reversed, negative, over a day or
 * out of order, text that is not well-formed or holds NUL, or more text than the bound. The whole
 * answer is refused (`MemoryInvalidResponseError`), never a part of it kept.
 */
export function checkMediaAnswer(answer: MediaSegmentsAnswer, kind: MediaKind, pageBound: number | undefined): void {
  let total = 0;
  let lastStart = -1;
  answer.segments.forEach((segment, index) => {
    const at = `segment ${index}`;
    if (!allowedSources[kind].has(segment.source)) refuse(`${at} is a ${segment.source} segment, which a ${kind} cannot have.`);
    if (!isWellFormedText(segment.text) || segment.text.includes('\u0000')) refuse(`${at} is not well-formed text.`);
    if (segment.text.trim() === '') refuse(`${at} is blank.`);
    total += segment.text.length;
    if (total > maxDerivedChars) refuse(`the segments hold more than ${maxDerivedChars} characters.`);
    if (segment.page !== undefined) {
      const bound = kind === 'pdf' ? (pageBound ?? maxPdfPages) : 0;
      if (segment.page < 1 || segment.page > bound) refuse(`${at} cites page ${segment.page}, outside the file (${bound === 0 ? `a ${kind} has no pages` : `pages 1 to ${bound}`}).`);
    } else if (kind === 'pdf') refuse(`${at} has no page number.`);
    const timed = segment.startMs !== undefined || segment.endMs !== undefined;
    if (segment.source === 'transcript' || timed) {
      if (kind !== 'audio') refuse(`${at} has a time span, which a ${kind} cannot have.`);
      const { startMs, endMs } = segment;
      if (startMs === undefined || endMs === undefined) refuse(`${at} needs both startMs and endMs.`);
      if (startMs < 0 || endMs <= startMs || endMs > maxMediaMs) refuse(`${at} spans ${startMs}–${endMs} ms, outside the media (0 to ${maxMediaMs}, start before end).`);
      if (startMs < lastStart) refuse(`${at} starts before the segment it follows.`);
      lastStart = startMs;
    }
  });
}

/** The text content, segments and media spans of a checked answer, in the answer's order. */
export function segmentsFromAnswer(
  answer: MediaSegmentsAnswer,
  resourceId: string,
  scope: ScopeValues,
): { content: string; segments: SegmentRow[]; spans: Map<string, MediaSpan> } {
  const segments: SegmentRow[] = [];
  const spans = new Map<string, MediaSpan>();
  let offset = 0;
  answer.segments.forEach((segment, ordinal) => {
    const id = `${resourceId}_s${ordinal}`;
    segments.push({ id, resourceId, scope, ordinal, text: segment.text, start: offset, end: offset + segment.text.length, role: segment.speaker, page: segment.page });
    spans.set(id, { source: segment.source, startMs: segment.startMs, endMs: segment.endMs });
    offset += segment.text.length + 1;
  });
  return { content: segments.map((segment) => segment.text).join('\n'), segments, spans };
}
