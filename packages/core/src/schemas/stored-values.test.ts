import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryValidationError } from '../errors/memory-validation-error';
import { maximumMetadataLength } from './json-value-schema';
import { parseInput } from './parse-with-schema';
import { copyValidQueryRequest } from './request-fast-path';
import { memoryCaptureRequestSchema, memoryCorrectionPatchSchema, memoryQueryRequestSchema, memoryRecordWriteRequestSchema } from './request-schemas';
import { isWellFormedText } from './well-formed-text';

const lone = '\ud800';
const scope = { companyId: 'acme' };
const source = { kind: 'run' as const, companyId: 'acme' };

function fieldOf(run: () => unknown): { field: string; message: string } {
  try {
    run();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return { field: error.field, message: error.message };
    throw error;
  }
  return { field: '(accepted)', message: '' };
}

const write = (record: Record<string, unknown>, extra: Record<string, unknown> = {}) => () =>
  parseInput(memoryRecordWriteRequestSchema, { bindingKey: 'b', scope, records: [record], ...extra }, 'upsertRecords request');

describe('values a provider stores', () => {
  it.each([
    ['records.0.text', write({ text: `a${lone}b` })],
    ['records.0.summary', write({ text: 'ok', summary: `\udc00 at the start` })],
    ['records.0.metadata.note', write({ text: 'ok', metadata: { note: `end ${lone}` } })],
    ['records.0.metadata.list.1', write({ text: 'ok', metadata: { list: ['fine', lone] } })],
    [`records.0.metadata.key${lone}`, write({ text: 'ok', metadata: { [`key${lone}`]: 1 } })],
    ['scope.agentId', () => parseInput(memoryRecordWriteRequestSchema, { bindingKey: 'b', scope: { companyId: 'acme', agentId: lone }, records: [{ text: 'ok' }] }, 'request')],
    ['source.externalRef', write({ text: 'ok' }, { source: { ...source, externalRef: `x${lone}` } })],
    ['query', () => parseInput(memoryQueryRequestSchema, { bindingKey: 'b', scope, query: `deploys ${lone}` }, 'query request')],
    ['payload.text', () => parseInput(memoryCaptureRequestSchema, { bindingKey: 'b', scope, source, payload: { text: `x${lone}` } }, 'capture request')],
    ['reason', () => parseInput(memoryCorrectionPatchSchema, { text: 'ok', reason: lone }, 'correction patch')],
  ])('refuses a lone surrogate in %s with a validation error naming the field', (field, run) => {
    const error = fieldOf(run);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(/lone surrogate/);
  });

  it('accepts every well-formed text, astral characters and line separators included', () => {
    const text = '😀 \u2028 \u2029 \u0085 \u000b \u000c 𝄞';
    expect(fieldOf(write({ text, summary: text, metadata: { [text]: text } }, { source: { ...source, externalRef: text }, scope: { companyId: '😀 \u2028 \u2029 \u0085 𝄞' } }))).toEqual({ field: '(accepted)', message: '' });
  });

  it('agrees with the query fast path on lone surrogates (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', 'a', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 12 }), (query) => {
        const request = { bindingKey: 'b', scope, query };
        const zodAccepts = memoryQueryRequestSchema.safeParse(request).success;
        expect(copyValidQueryRequest(request) !== undefined).toBe(zodAccepts);
        if (query.trim() !== '') expect(zodAccepts).toBe(isWellFormedText(query));
      }),
      { numRuns: 500 },
    );
  });

  it('caps metadata at 100,000 characters of JSON, on writes, captures and corrections', () => {
    const atCap = { blob: 'x'.repeat(maximumMetadataLength - '{"blob":""}'.length) };
    const overCap = { blob: 'x'.repeat(maximumMetadataLength) };
    expect(fieldOf(write({ text: 'ok', metadata: atCap })).field).toBe('(accepted)');
    expect(fieldOf(write({ text: 'ok', metadata: overCap }))).toMatchObject({ field: 'records.0.metadata', message: expect.stringMatching(/at most 100000 characters/) });
    expect(fieldOf(() => parseInput(memoryCaptureRequestSchema, { bindingKey: 'b', scope, source, payload: { text: 'x' }, metadata: overCap }, 'capture')).field).toBe('metadata');
    expect(fieldOf(() => parseInput(memoryCaptureRequestSchema, { bindingKey: 'b', scope, source, payload: { text: 'x', metadata: overCap } }, 'capture')).field).toBe('payload.metadata');
    expect(fieldOf(() => parseInput(memoryCorrectionPatchSchema, { metadata: { huge: 'y'.repeat(10_000_000) } }, 'patch')).field).toBe('metadata');
  });
});
