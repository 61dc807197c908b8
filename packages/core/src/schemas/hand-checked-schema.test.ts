import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MemoryInvalidResponseError } from '../errors/memory-simple-errors';
import { handCheckedSchema } from './hand-checked-schema';
import { parseProviderResult } from './parse-with-schema';

const detailed = z.object({ results: z.array(z.object({ id: z.string().min(1) })) });
const isPage = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { results?: unknown }).results) &&
  (value as { results: unknown[] }).results.every((entry) => typeof (entry as { id?: unknown })?.id === 'string' && (entry as { id: string }).id.length > 0);

describe('handCheckedSchema', () => {
  it('returns a body that passes the hand check as it is, without running zod', () => {
    const check = vi.fn(isPage);
    const schema = handCheckedSchema(check, detailed);
    const spy = vi.spyOn(detailed, 'safeParse');
    const body = { results: [{ id: 'a' }], extra: true };
    expect(parseProviderResult(schema, body, 'page')).toBe(body);
    expect(check).toHaveBeenCalledTimes(1);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('names the bad field of a body that fails, from the detailed schema', () => {
    const schema = handCheckedSchema(isPage, detailed);
    const parse = () => parseProviderResult(schema, { results: [{ id: 'a' }, { id: '' }] }, 'page');
    expect(parse).toThrow(MemoryInvalidResponseError);
    expect(parse).toThrow(/Malformed page: results\.1\.id/);
  });

  it('reports the given description when the detailed schema accepts what the hand check refused', () => {
    const schema = handCheckedSchema(() => false, detailed, 'is not a page');
    expect(() => parseProviderResult(schema, { results: [] }, 'page')).toThrow(/Malformed page: \(root\): is not a page/);
  });

  it('behaves the same when used as a plain zod schema', () => {
    const schema = handCheckedSchema(isPage, detailed);
    const body = { results: [{ id: 'a' }] };
    expect(schema.parse(body)).toBe(body);
    const failed = schema.safeParse({ results: [{}] });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['results', 0, 'id']);
  });
});
