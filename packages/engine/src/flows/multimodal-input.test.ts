import { MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { createInMemoryStore } from '../store/memory/memory-store';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { pngBytes, twoPagePdf } from '../testing/multimodal-fixtures';
import { buildResource, parseMemorizeInput } from './memorize-input';
import { allowedMediaTypes, maxResourceBytes, mediaKindOf, pdfPageBound } from './multimodal-input';

const scope = { org: 'acme', project: 'apollo' };

function fieldOf(input: unknown): string | undefined {
  try {
    parseMemorizeInput(input);
    return undefined;
  } catch (error) {
    if (!MemoryValidationError.isInstance(error)) throw error;
    return error.field;
  }
}

describe('binary resource input', () => {
  it('refuses what it cannot vouch for, naming the field', () => {
    expect(fieldOf({ type: 'resource', data: pngBytes() })).toBe('input.mimeType');
    expect(fieldOf({ type: 'resource', data: pngBytes(), mimeType: 'image/svg+xml' })).toBe('input.mimeType');
    expect(fieldOf({ type: 'resource', data: pngBytes(), mimeType: 'text/html' })).toBe('input.mimeType');
    // A PDF declared as an image, and a script declared as a PDF: the signature decides.
    expect(fieldOf({ type: 'resource', data: twoPagePdf(), mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: new Uint8Array(Buffer.from('<script>alert(1)</script>')), mimeType: 'application/pdf' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: new Uint8Array(0), mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: 'not base64!', mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: 'iVBORw0K\nGgo=', mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: [137, 80, 78, 71], mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: pngBytes(), content: 'and text', mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: pngBytes(), mimeType: 'image/png', metadata: { 'memplane:media': { status: 'processed' } } })).toBe('input.metadata.memplane:media');
    expect(fieldOf({ type: 'resource', mimeType: 'image/png' })).toBe('input.content');
    expect(fieldOf({ type: 'resource', data: pngBytes(), mimeType: 'image/png', uri: 'https://files.example/a.png' })).toBeUndefined();
  });

  it('refuses more than the size cap, as bytes and as base64, before hashing anything', () => {
    const big = new Uint8Array(maxResourceBytes + 1);
    big.set(pngBytes());
    expect(fieldOf({ type: 'resource', data: big, mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: 'A'.repeat(Math.ceil(maxResourceBytes / 3) * 4 + 4), mimeType: 'image/png' })).toBe('input.data');
    expect(fieldOf({ type: 'resource', data: big.subarray(0, maxResourceBytes), mimeType: 'image/png' })).toBeUndefined();
    // The largest file as base64 (28 MB of text) is checked in one pass, not by a regular expression that overflows the stack.
    expect(fieldOf({ type: 'resource', data: Buffer.from(big.subarray(0, maxResourceBytes)).toString('base64'), mimeType: 'image/png' })).toBeUndefined();
  });

  it('a refused input writes nothing', async () => {
    const store = createInMemoryStore();
    const engine = await createMemoryEngine({ scope: orgProjectScope, store, now: steppingClock() });
    await expect(engine.memorize(scope, { type: 'resource', data: twoPagePdf(), mimeType: 'image/gif' })).rejects.toSatisfy((error: unknown) => MemoryValidationError.isInstance(error));
    expect(await engine.listRuns()).toEqual([]);
  });

  it('the identity of a file is its bytes and media type, not its location or encoding', () => {
    const ids = { newId: (prefix: string) => `${prefix}_1` };
    const hashOf = (input: unknown) => buildResource(parseMemorizeInput(input), scope, ids, '2026-01-01T00:00:00.000Z', 1).resource.contentHash;
    const bytes = pngBytes();
    const asBytes = hashOf({ type: 'resource', data: bytes, mimeType: 'image/png' });
    expect(hashOf({ type: 'resource', data: Buffer.from(bytes).toString('base64'), mimeType: 'Image/PNG; q=1', uri: 'https://elsewhere.example/x.png' })).toBe(asBytes);
    expect(hashOf({ type: 'resource', data: pngBytes('another file'), mimeType: 'image/png' })).not.toBe(asBytes);
  });

  it('property: any bytes with any media type are accepted exactly when the type is allowed and the signature matches, else refused by field', () => {
    const signatures: Record<string, number[]> = { 'image/png': [...pngBytes().subarray(0, 8)], 'application/pdf': [...Buffer.from('%PDF-')], 'audio/ogg': [...Buffer.from('OggS')] };
    const mimeType = fc.oneof(fc.constantFrom(...allowedMediaTypes), fc.string({ maxLength: 40 }), fc.constant(undefined));
    const body = fc.uint8Array({ maxLength: 64 });
    const data = fc.tuple(fc.option(fc.constantFrom(...Object.keys(signatures)), { nil: undefined }), body, fc.boolean()).map(([signed, rest, asBase64]) => {
      const bytes = new Uint8Array([...(signed === undefined ? [] : (signatures[signed] as number[])), ...rest]);
      return asBase64 ? Buffer.from(bytes).toString('base64') : bytes;
    });
    fc.assert(
      fc.property(data, mimeType, (given, type) => {
        const field = fieldOf({ type: 'resource', data: given, mimeType: type });
        const bytes = typeof given === 'string' ? new Uint8Array(Buffer.from(given, 'base64')) : given;
        if (field === undefined) {
          expect(bytes.byteLength).toBeGreaterThan(0);
          expect(allowedMediaTypes).toContain(type?.split(';')[0]?.trim().toLowerCase());
        } else {
          expect(['input.data', 'input.mimeType']).toContain(field);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a media type that names a property of every object (__proto__, constructor, toString) by field, never with a TypeError', () => {
    for (const mimeType of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__; q=1']) {
      expect(fieldOf({ type: 'resource', data: new Uint8Array([0]), mimeType }), mimeType).toBe('input.mimeType');
      expect(mediaKindOf(mimeType), mimeType).toBeUndefined();
    }
  });

  it('bounds the pages of a PDF only when its page objects are readable', () => {
    expect(pdfPageBound(twoPagePdf())).toBe(2);
    expect(pdfPageBound(new Uint8Array(Buffer.from('%PDF-1.7\n/Type /Pages /Count 9\n/Type/ObjStm')))).toBeUndefined();
  });
});
