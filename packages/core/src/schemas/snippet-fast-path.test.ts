import { describe, expect, it } from 'vitest';
import { memoryScopeFields } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { memorySnippetSchema } from './result-schemas';
import { copyValidSnippet } from './snippet-fast-path';

const valid = {
  handle: { providerKey: 'memory', providerRecordId: 'mem_1' },
  text: 'Deploys happen on Tuesdays.',
  score: 2.5,
  summary: 'deploy day',
  source: { kind: 'issue_comment', companyId: 'c1', issueId: 'PAP-1', commentId: 'k1' },
  metadata: { kind: 'decision', nested: { list: [1, 'two', null, true] } },
  scope: { companyId: 'c1', agentId: 'a1', namespace: 'n' },
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

class NotPlain {
  value = 1;
}

/** Every way a provider could break a snippet, plus harmless variations. */
const variants: Array<[string, unknown]> = [
  ['the valid snippet', valid],
  ['only the required fields', { handle: valid.handle, text: 'x' }],
  ['an extra key', { ...valid, vendorField: 42 }],
  ['explicit undefined optionals', { ...valid, score: undefined, summary: undefined, metadata: undefined }],
  ['an empty text', { ...valid, text: '' }],
  ['null', null],
  ['an array', [valid]],
  ['a string', 'snippet'],
  ['text as a number', { ...valid, text: 7 }],
  ['no text', { handle: valid.handle }],
  ['no handle', { text: 'x' }],
  ['handle as a string', { ...valid, handle: 'mem_1' }],
  ['handle without a record id', { ...valid, handle: { providerKey: 'memory' } }],
  ['handle record id as a number', { ...valid, handle: { providerKey: 'memory', providerRecordId: 1 } }],
  ['score as a string', { ...valid, score: '2.5' }],
  ['score NaN', { ...valid, score: Number.NaN }],
  ['score Infinity', { ...valid, score: Number.POSITIVE_INFINITY }],
  ['score null', { ...valid, score: null }],
  ['summary as a number', { ...valid, summary: 3 }],
  ['createdAt as a date', { ...valid, createdAt: new Date(0) }],
  ['updatedAt as a number', { ...valid, updatedAt: 0 }],
  ['source with an unknown kind', { ...valid, source: { ...valid.source, kind: 'email' } }],
  ['source without a company', { ...valid, source: { kind: 'run' } }],
  ['source with a numeric issue', { ...valid, source: { ...valid.source, issueId: 12 } }],
  ['source with an extra key', { ...valid, source: { ...valid.source, vendor: 'x' } }],
  ['source as null', { ...valid, source: null }],
  ['scope without a company', { ...valid, scope: { agentId: 'a1' } }],
  ['scope with a numeric agent', { ...valid, scope: { companyId: 'c1', agentId: 5 } }],
  ['scope with an extra key', { ...valid, scope: { companyId: 'c1', tenant: 't' } }],
  ['scope as an array', { ...valid, scope: ['c1'] }],
  ['metadata as an array', { ...valid, metadata: [1] }],
  ['metadata as null', { ...valid, metadata: null }],
  ['metadata with a function', { ...valid, metadata: { run: () => 1 } }],
  ['metadata with undefined', { ...valid, metadata: { gone: undefined } }],
  ['metadata with NaN', { ...valid, metadata: { value: Number.NaN } }],
  ['metadata with a date', { ...valid, metadata: { at: new Date(0) } }],
  ['metadata with a class instance', { ...valid, metadata: { thing: new NotPlain() } }],
  ['metadata as a class instance', { ...valid, metadata: new NotPlain() }],
  ['metadata nested too deep', { ...valid, metadata: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }],
];

const sourceReferenceFields = ['issueId', 'commentId', 'documentKey', 'runId', 'activityId', 'externalRef'];
const fullScope = Object.fromEntries(memoryScopeFields.map((field) => [field, `${field}-value`]));
const fullSource = { kind: 'run', companyId: 'c1', ...Object.fromEntries(sourceReferenceFields.map((field) => [field, `${field}-value`])) };

// Every field one by one, so a field the hand-written check forgets is caught.
const perField: Array<[string, unknown]> = [
  ['a scope with every field', { ...valid, scope: fullScope }],
  ['a source with every field', { ...valid, source: fullSource }],
  ...memoryScopeFields.map((field): [string, unknown] => [`scope.${field} as a number`, { ...valid, scope: { ...fullScope, [field]: 1 } }]),
  ...sourceReferenceFields.map((field): [string, unknown] => [`source.${field} as a number`, { ...valid, source: { ...fullSource, [field]: 1 } }]),
];

describe('copyValidSnippet', () => {
  it.each(perField)('agrees with memorySnippetSchema on %s', (_name, input) => {
    const zod = memorySnippetSchema.safeParse(input);
    const fast = copyValidSnippet(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it.each(variants)('agrees with memorySnippetSchema on %s', (_name, input) => {
    const zod = memorySnippetSchema.safeParse(input);
    const fast = copyValidSnippet(input);
    expect(fast !== undefined).toBe(zod.success);
    if (zod.success) expect(fast).toEqual(zod.data);
  });

  it('copies, so changing the result does not change the provider object', () => {
    const copy = copyValidSnippet(valid);
    copy!.handle.providerRecordId = 'changed';
    copy!.scope!.companyId = 'changed';
    expect(valid.handle.providerRecordId).toBe('mem_1');
    expect(valid.scope.companyId).toBe('c1');
  });
});
