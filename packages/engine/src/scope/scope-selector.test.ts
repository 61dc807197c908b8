import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScopeModel } from './scope-model';
import { resolveScopePolicy } from './scope-policy';
import { ScopePolicyError } from './scope-policy-error';
import { ANY, resolveScopeSelector } from './scope-selector';

const model = createScopeModel({ schema: z.object({ org: z.string().min(1), project: z.string().min(1), agent: z.string().min(1) }), boundaryFields: ['org'] });
const policy = resolveScopePolicy({ maxScopeCombinations: 8 });

function refusal(selector: unknown): unknown {
  try {
    resolveScopeSelector(model, selector, policy);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('scope selector policy (§7.2)', () => {
  it('refuses ANY on a boundary field, naming it', () => {
    const error = refusal({ org: ANY, project: 'p', agent: ANY });
    expect(ScopePolicyError.isInstance(error) && [error.rule, error.field]).toEqual(['scope.boundary_any', 'org']);
  });

  it('refuses IN lists whose combinations pass the cap, and accepts the cap itself', () => {
    const error = refusal({ org: { in: ['a', 'b', 'c'] }, project: { in: ['1', '2', '3'] }, agent: ANY });
    expect(ScopePolicyError.isInstance(error) && error.rule).toBe('scope.combination_cap');
    expect(resolveScopeSelector(model, { org: { in: ['a', 'b'] }, project: { in: ['1', '2'] }, agent: { in: ['x', 'y'] } }, policy).combinations).toBe(8);
  });

  it('counts duplicate IN values once', () => {
    expect(resolveScopeSelector(model, { org: { in: ['a', 'a', 'a'] }, project: ANY, agent: ANY }, policy).range.org).toEqual(['a']);
  });

  it('refuses missing, unknown and malformed fields with a validation error naming each', () => {
    const error = refusal({ org: 'a', project: { in: [] }, stranger: 'x', agent: { any: true, in: ['z'] } });
    expect(MemoryValidationError.isInstance(error)).toBe(true);
    expect((error as MemoryValidationError).issues.map((issue) => issue.path).sort()).toEqual(['scope.agent', 'scope.project.in', 'scope.stranger']);
    expect(MemoryValidationError.isInstance(refusal({ org: '', project: ANY, agent: ANY }))).toBe(true);
    expect(MemoryValidationError.isInstance(refusal(null))).toBe(true);
  });

  it('never lets ANY through on the boundary and never exceeds the cap, for any selector (fast-check)', () => {
    const value = fc.string({ minLength: 0, maxLength: 6 });
    const field = fc.oneof(value, fc.record({ in: fc.array(value, { maxLength: 5 }) }), fc.constant(ANY), fc.constant(undefined), fc.integer());
    fc.assert(
      fc.property(fc.record({ org: field, project: field, agent: field }, { requiredKeys: [] }), (selector) => {
        const error = refusal(selector);
        if (error === undefined) {
          const resolved = resolveScopeSelector(model, selector, policy);
          expect(resolved.range.org).toBeDefined();
          expect(resolved.combinations).toBeLessThanOrEqual(policy.maxScopeCombinations);
          for (const values of Object.values(resolved.range)) for (const entry of values ?? []) expect(entry.length).toBeGreaterThan(0);
        } else {
          expect(MemoryValidationError.isInstance(error) || ScopePolicyError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('scope model (§5)', () => {
  it('refuses a schema without boundary fields, with non-string fields or unsafe names', () => {
    expect(() => createScopeModel({ schema: z.object({ org: z.string() }), boundaryFields: [] })).toThrow(MemoryConfigurationError);
    expect(() => createScopeModel({ schema: z.object({ org: z.number() }), boundaryFields: ['org'] })).toThrow(/must be a string field/);
    expect(() => createScopeModel({ schema: z.object({ 'org; drop table': z.string() }), boundaryFields: ['org; drop table'] })).toThrow(/letter then letters/);
    expect(() => createScopeModel({ schema: z.object({ org: z.string() }), boundaryFields: ['tenant'] })).toThrow(/not a field/);
  });

  it('hashes the schema: field order, constraints and boundary all count', () => {
    const hash = (schema: z.ZodObject, boundary: string[]) => createScopeModel({ schema, boundaryFields: boundary }).hash;
    const base = hash(z.object({ org: z.string(), project: z.string() }), ['org']);
    expect(hash(z.object({ org: z.string(), project: z.string() }), ['org'])).toBe(base);
    expect(hash(z.object({ project: z.string(), org: z.string() }), ['org'])).not.toBe(base);
    expect(hash(z.object({ org: z.string().max(5), project: z.string() }), ['org'])).not.toBe(base);
    expect(hash(z.object({ org: z.string(), project: z.string() }), ['org', 'project'])).not.toBe(base);
  });

  it('takes Unicode scope values the schema accepts', () => {
    const unicode = createScopeModel({ schema: z.object({ org: z.string() }), boundaryFields: ['org'] });
    expect(unicode.parseFull({ org: 'société-東京-🚀' }, 'test')).toEqual({ org: 'société-東京-🚀' });
  });
});
