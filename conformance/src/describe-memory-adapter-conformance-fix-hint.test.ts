import { AssertionError } from 'node:assert/strict';
import { MemoryApiCallError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { adapterGuideUrl, type ConformanceRule } from './conformance-rule';
import { withFixHint } from './describe-memory-adapter-conformance';

const rule: ConformanceRule = {
  id: 'pagination.walk',
  family: 'pagination',
  description: 'Walks.',
  fix: { hint: 'Page by a stable key.', guideSection: 'keyset-cursors' },
  run: async () => undefined,
};

describe('the vitest entry', () => {
  it("ends an assertion failure with the rule's fix hint and the link to the guide section", () => {
    const error = withFixHint(new AssertionError({ message: 'Expected 23 records, but saw 22.' }), rule) as Error;
    expect(error.message).toBe(`Expected 23 records, but saw 22.\nFix: Page by a stable key. See ${adapterGuideUrl}#keyset-cursors`);
  });

  it("leaves the adapter's own errors, and rules without a hint, as they are", () => {
    const thrown = new MemoryApiCallError({ message: 'Provider said no.', statusCode: 500, isRetryable: true });
    expect((withFixHint(thrown, rule) as Error).message).toBe('Provider said no.');
    const { fix: _none, ...withoutFix } = rule;
    expect((withFixHint(new AssertionError({ message: 'Nope.' }), withoutFix) as Error).message).toBe('Nope.');
  });
});
