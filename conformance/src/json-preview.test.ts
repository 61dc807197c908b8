import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preview } from './assertions';
import { elidedFieldsKey, previewJson } from './json-preview';

/** A note that says what was left out: `"3 fields left out: …"` or `"2 more items left out"`. */
const elisionNote = /^(\d+ fields? left out(: .*)?|(and )?\d+ more items? left out)$/;

/**
 * Fails unless every value `shown` holds equals the value at the same place in `original`, or
 * is itself a shortened object or array: what was cut is never a part of a value, only whole
 * fields and items, each counted in a note.
 */
function expectOnlyWholeValues(shown: unknown, original: unknown, path = '$'): void {
  if (Array.isArray(shown)) {
    expect(Array.isArray(original), path).toBe(true);
    const items = original as unknown[];
    const last = shown.at(-1);
    const elided = typeof last === 'string' && elisionNote.test(last) && !(items.length === shown.length && items.at(-1) === last);
    const kept = elided ? shown.slice(0, -1) : shown;
    if (elided) expect(last).toContain(`${items.length - kept.length} more item`);
    else expect(kept).toHaveLength(items.length);
    kept.forEach((item, index) => expectOnlyWholeValues(item, items[index], `${path}[${index}]`));
    return;
  }
  if (typeof shown === 'object' && shown !== null) {
    expect(typeof original === 'object' && original !== null && !Array.isArray(original), path).toBe(true);
    const fields = original as Record<string, unknown>;
    const { [elidedFieldsKey]: note, ...kept } = shown as Record<string, unknown>;
    for (const [key, value] of Object.entries(kept)) {
      expect(Object.hasOwn(fields, key), `${path}.${key}`).toBe(true);
      expectOnlyWholeValues(value, fields[key], `${path}.${key}`);
    }
    const missing = Object.keys(fields).filter((key) => !Object.hasOwn(kept, key));
    if (missing.length === 0) expect(note, path).toBeUndefined();
    else expect(note, path).toMatch(new RegExp(`^${missing.length} fields? left out`));
    return;
  }
  expect(shown, path).toEqual(original);
}

/** A record as a leaking adapter returns it: short scope and handle, a long text, large metadata. */
const largeRecord = {
  handle: { providerKey: 'memory', providerRecordId: 'record:42' },
  text: `Conformance record about the release checklist. ${'Very long body. '.repeat(200)}`,
  scope: { companyId: 'company-a', agentId: 'agent-a' },
  source: { kind: 'issue_comment', companyId: 'company-a', issueId: 'issue-1', commentId: 'comment-1' },
  metadata: Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`key${index}`, `value number ${index} of the metadata`])),
  summary: 'A summary.',
};

describe('previewJson', () => {
  it('shows a value that fits exactly as JSON.stringify does', () => {
    expect(previewJson({ a: 1, b: [true, null, 'x'] })).toBe('{"a":1,"b":[true,null,"x"]}');
    expect(previewJson('text')).toBe('"text"');
  });

  it('shows a large record as valid JSON: short fields whole, the long text and the metadata keys that do not fit left out whole, each named', () => {
    const text = previewJson(largeRecord, 400);
    const shown = JSON.parse(text) as Record<string, unknown>;
    expect(shown.handle).toEqual(largeRecord.handle);
    expect(shown.scope).toEqual(largeRecord.scope);
    expect(shown.source).toEqual(largeRecord.source);
    expect(shown.summary).toBe('A summary.');
    expect(shown.text).toBeUndefined();
    expect(shown[elidedFieldsKey]).toBe('1 field left out: text');
    expect(text).not.toContain('Very long body');
    expectOnlyWholeValues(shown, largeRecord);
    expect(text.length).toBeLessThanOrEqual(400);
  });

  it('leaves out whole items of a list, counting them, and keeps the items it shows whole', () => {
    const records = Array.from({ length: 30 }, (_, index) => ({ id: `record-${index}`, text: `Text of record ${index}.` }));
    const shown = JSON.parse(previewJson(records, 300)) as unknown[];
    expect(shown.at(-1)).toMatch(/^and \d+ more items left out$/);
    expectOnlyWholeValues(shown, records);
  });

  it('shortens only a lone string longer than the budget, inside its quotes, counting what it left out', () => {
    const shown = JSON.parse(previewJson('ab'.repeat(1000), 100)) as string;
    expect(shown).toBe(`${'ab'.repeat(50)}… (1900 more characters)`);
    expect(JSON.parse(previewJson(`${'a'.repeat(99)}😀tail`, 100))).toBe(`${'a'.repeat(99)}… (6 more characters)`);
  });

  it('names values JSON cannot represent with String instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(previewJson(cyclic)).toBe('[object Object]');
    expect(previewJson(undefined)).toBe('undefined');
    expect(previewJson(10n)).toBe('10');
  });

  it('is what the assertion helpers use: preview never cuts a record in the middle', () => {
    expect(() => JSON.parse(preview(largeRecord))).not.toThrow();
    expectOnlyWholeValues(JSON.parse(preview([largeRecord, largeRecord])), [largeRecord, largeRecord]);
  });

  it('always gives valid JSON made of whole values within the budget, for any JSON value and budget (fast-check)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 600 }), (value, budget) => {
        const plain: unknown = JSON.parse(JSON.stringify(value));
        const text = previewJson(plain, budget);
        const shown: unknown = JSON.parse(text);
        if (typeof plain === 'string' && JSON.stringify(plain).length > budget) return;
        expectOnlyWholeValues(shown, plain);
        if (typeof plain === 'object' && plain !== null) expect(text.length).toBeLessThanOrEqual(Math.max(budget, 50));
      }),
      { numRuns: 400 },
    );
  });
});
