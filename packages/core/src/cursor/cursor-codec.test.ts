import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidCursorError, type InvalidCursorReason } from '../errors/memory-simple-errors';
import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { normalizeScope } from '../scope/scope-matches';
import { canonicalListing, canonicalScope, createCursorCodec, type CursorBinding } from './cursor-codec';
import { stableStringify } from './stable-stringify';

const scope: MemoryScope = { companyId: 'company-a', agentId: 'agent-1', projectId: 'project-9' };
const binding: CursorBinding = { scope, listing: 'records', filter: { topic: 'billing', pinned: true } };
const secret = 'a test secret that is long enough';

function reasonOf(decode: () => unknown): InvalidCursorReason | 'accepted' {
  try {
    decode();
    return 'accepted';
  } catch (error) {
    if (InvalidCursorError.isInstance(error)) return error.reason;
    throw error;
  }
}

/** Signs a body the way the codec does, to build cursors that pass the signature check. */
function signedCursor(body: string): string {
  const signature = createHmac('sha256', secret).update(body).digest().subarray(0, 18).toString('base64url');
  return `c1.${body}.${signature}`;
}

describe('createCursorCodec', () => {
  it('round-trips a position for the same binding', () => {
    const codec = createCursorCodec({ secret });
    const position = { offset: 50, lastId: 'record-50', createdAt: '2025-01-01T00:00:00.000Z' };
    const cursor = codec.encode(position, binding);
    expect(cursor).toMatch(/^c1\.[\w-]+\.[\w-]+$/);
    expect(codec.decode(cursor, binding)).toEqual(position);
  });

  it('accepts a cursor in another codec with the same secret, as after a restart', () => {
    const cursor = createCursorCodec({ secret }).encode(7, binding);
    expect(createCursorCodec({ secret }).decode(cursor, binding)).toBe(7);
  });

  it('refuses a cursor of a codec with another secret as tampered', () => {
    const cursor = createCursorCodec({ secret }).encode(7, binding);
    expect(reasonOf(() => createCursorCodec({ secret: 'another secret' }).decode(cursor, binding))).toBe('tampered');
    expect(reasonOf(() => createCursorCodec().decode(cursor, binding))).toBe('tampered');
  });

  it('refuses a cursor whose body or signature was changed as tampered', () => {
    const codec = createCursorCodec({ secret });
    const [version, body = '', signature = ''] = codec.encode({ offset: 50 }, binding).split('.');
    const forgedBody = Buffer.from(
      Buffer.from(body, 'base64url').toString('utf8').replace('"offset":50', '"offset":5000'),
    ).toString('base64url');
    expect(forgedBody).not.toBe(body);
    expect(reasonOf(() => codec.decode(`${version}.${forgedBody}.${signature}`, binding))).toBe('tampered');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(reasonOf(() => codec.decode(`${version}.${body}.${flipped}`, binding))).toBe('tampered');
    expect(reasonOf(() => codec.decode(`${version}.${body}.${signature.slice(2)}`, binding))).toBe('tampered');
    expect(reasonOf(() => codec.decode(`${version}.${body}.${signature}x`, binding))).toBe('tampered');
  });

  it('refuses a cursor used with another scope as foreign', () => {
    const codec = createCursorCodec({ secret });
    const cursor = codec.encode(1, binding);
    expect(reasonOf(() => codec.decode(cursor, { ...binding, scope: { ...scope, companyId: 'company-b' } }))).toBe('foreign');
    expect(reasonOf(() => codec.decode(cursor, { ...binding, scope: { ...scope, agentId: 'agent-2' } }))).toBe('foreign');
    expect(reasonOf(() => codec.decode(cursor, { ...binding, scope: { companyId: 'company-a' } }))).toBe('foreign');
  });

  it('refuses a cursor used with another filter or listing as stale', () => {
    const codec = createCursorCodec({ secret });
    const cursor = codec.encode(1, binding);
    expect(reasonOf(() => codec.decode(cursor, { ...binding, filter: { topic: 'billing' } }))).toBe('stale');
    expect(reasonOf(() => codec.decode(cursor, { ...binding, filter: undefined }))).toBe('stale');
    expect(reasonOf(() => codec.decode(cursor, { ...binding, listing: 'extraction-jobs' }))).toBe('stale');
  });

  it('treats scopes and filters with the same fields in another key order as the same binding', () => {
    const codec = createCursorCodec({ secret });
    const cursor = codec.encode('position', binding);
    const reordered: CursorBinding = {
      scope: { projectId: 'project-9', agentId: 'agent-1', companyId: 'company-a' },
      listing: 'records',
      filter: { pinned: true, topic: 'billing' },
    };
    expect(codec.decode(cursor, reordered)).toBe('position');
    expect(codec.decode(cursor, { ...reordered, scope: { ...reordered.scope, runId: undefined } })).toBe('position');
  });

  it('treats an absent filter and a null filter alike', () => {
    const codec = createCursorCodec({ secret });
    const cursor = codec.encode(3, { scope, listing: 'records' });
    expect(codec.decode(cursor, { scope, listing: 'records', filter: null })).toBe(3);
  });

  it('refuses a cursor older than maxAgeMs as stale', () => {
    let now = 1_700_000_000_000;
    const codec = createCursorCodec({ secret, maxAgeMs: 60_000, now: () => now });
    const cursor = codec.encode(1, binding);
    now += 60_000;
    expect(codec.decode(cursor, binding)).toBe(1);
    now += 1;
    expect(reasonOf(() => codec.decode(cursor, binding))).toBe('stale');
  });

  it('keeps cursors for 24 hours by default', () => {
    let now = 1_700_000_000_000;
    const codec = createCursorCodec({ secret, now: () => now });
    const cursor = codec.encode(1, binding);
    now += 24 * 60 * 60 * 1000;
    expect(codec.decode(cursor, binding)).toBe(1);
    now += 1;
    expect(reasonOf(() => codec.decode(cursor, binding))).toBe('stale');
  });

  it.each(['garbage', '', 'c1.only-two', 'c2.body.signature', 'c1.a.b.c'])('refuses %j as malformed', (cursor) => {
    expect(reasonOf(() => createCursorCodec({ secret }).decode(cursor, binding))).toBe('malformed');
  });

  it('refuses a correctly signed body that is not JSON as malformed, keeping the parse error', () => {
    const codec = createCursorCodec({ secret });
    const cursor = signedCursor(Buffer.from('not json').toString('base64url'));
    expect(() => codec.decode(cursor, binding)).toThrow(
      expect.objectContaining({ reason: 'malformed', cause: expect.any(SyntaxError) }) as InvalidCursorError,
    );
  });

  it('refuses a correctly signed body without a timestamp as stale', () => {
    const codec = createCursorCodec({ secret });
    const [, body = ''] = codec.encode(1, binding).split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const cursor = signedCursor(Buffer.from(JSON.stringify({ ...decoded, t: 'yesterday' })).toString('base64url'));
    expect(reasonOf(() => codec.decode(cursor, binding))).toBe('stale');
  });

  it('keeps the scope out of the cursor text', () => {
    const cursor = createCursorCodec({ secret }).encode(1, binding);
    const text = Buffer.from(cursor.split('.')[1] ?? '', 'base64url').toString('utf8');
    expect(text).not.toContain('company-a');
    expect(text).not.toContain('billing');
  });

  it('canonicalises scopes and listings exactly as stableStringify does, so digests do not change', () => {
    const scopes: MemoryScope[] = [
      { companyId: 'c' },
      scope,
      { companyId: 'c "quoted" \\ \u00e9', namespace: 'n', subjectId: 's', sessionKey: 'k', runId: 'r', issueId: 'i', projectId: 'p', agentId: 'a' },
      { companyId: 'c', agentId: undefined, runId: '' } as MemoryScope,
    ];
    for (const candidate of scopes) expect(canonicalScope(candidate)).toBe(stableStringify(normalizeScope(candidate)));
    const bindings: CursorBinding[] = [binding, { scope, listing: 'extraction-jobs' }, { scope, listing: 'x"y', filter: { b: [1, { d: 2, c: null }], a: 'z' } }];
    for (const candidate of bindings) {
      expect(canonicalListing(candidate)).toBe(stableStringify({ listing: candidate.listing, filter: candidate.filter ?? null }));
    }
  });
});
