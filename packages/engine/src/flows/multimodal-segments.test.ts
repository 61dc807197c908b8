import { MemoryInvalidResponseError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MediaKind } from './multimodal-input';
import { checkMediaAnswer, maxDerivedChars, mediaSegmentsSchema, segmentsFromAnswer, type MediaSegmentsAnswer } from './multimodal-segments';

const scope = { org: 'acme', project: 'apollo' };

const text = fc.oneof(
  { weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '') },
  { weight: 1, arbitrary: fc.constantFrom(' ', 'a\u0000b', '\ud800x') },
);
const time = fc.integer({ min: -10, max: 100_000_000 });
/** Plausible segments of each kind (so many answers pass) beside wild ones (so many do not). */
const segment = fc.oneof(
  fc.record({ source: fc.constantFrom('caption', 'ocr'), text }),
  fc.record({ source: fc.constantFrom('page', 'ocr'), page: fc.integer({ min: -1, max: 6 }), text }),
  fc.record({ source: fc.constant('transcript'), startMs: fc.integer({ min: 0, max: 5000 }), endMs: fc.integer({ min: 0, max: 10_000 }), text, speaker: fc.constantFrom('Ana', 'Bo') }),
  fc.record(
    { source: fc.constantFrom('caption', 'ocr', 'transcript', 'page'), text, page: fc.integer({ min: -2, max: 6 }), startMs: time, endMs: time, speaker: fc.string({ minLength: 1, maxLength: 10 }) },
    { requiredKeys: ['source', 'text'] },
  ),
);

describe('checking a model answer about a file', () => {
  it('property: an answer is refused as a whole, or every kept segment lies inside the file and its text is found at its span', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.constantFrom<MediaKind>('image', 'pdf', 'audio'), fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (segments, kind, pageBound) => {
        const answer = mediaSegmentsSchema.parse({ segments }) as MediaSegmentsAnswer;
        try {
          checkMediaAnswer(answer, kind, pageBound);
        } catch (error) {
          expect(MemoryInvalidResponseError.isInstance(error)).toBe(true);
          return;
        }
        const built = segmentsFromAnswer(answer, 'res_1', scope);
        let lastStart = -1;
        built.segments.forEach((row, index) => {
          expect(built.content.slice(row.start, row.end)).toBe(answer.segments[index]?.text);
          const span = built.spans.get(row.id);
          if (kind === 'image') expect(row.page).toBeUndefined();
          if (kind === 'pdf') expect(row.page).toBeGreaterThanOrEqual(1);
          if (kind === 'pdf') expect(row.page).toBeLessThanOrEqual(pageBound ?? 10_000);
          if (kind === 'audio') {
            expect(span?.source).toBe('transcript');
            expect(span?.startMs).toBeGreaterThanOrEqual(Math.max(0, lastStart));
            expect(span?.endMs).toBeGreaterThan(span?.startMs as number);
            lastStart = span?.startMs as number;
          } else {
            expect(span?.startMs).toBeUndefined();
          }
          expect(row.text.includes('\u0000')).toBe(false);
        });
        expect(built.content.length).toBeLessThanOrEqual(maxDerivedChars + built.segments.length);
      }),
      { numRuns: 1000 },
    );
  });
});
