import { describe, expect, it } from 'vitest';
import { memoryScopeFields, type MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import { normalizeScope, scopeMatches } from './scope-matches';

const record: MemoryScope = { companyId: 'company-a', agentId: 'agent-1', projectId: 'project-9', runId: 'run-3' };

describe('scopeMatches', () => {
  it('matches when every field set on the request equals the record', () => {
    expect(scopeMatches(record, { companyId: 'company-a' })).toBe(true);
    expect(scopeMatches(record, { companyId: 'company-a', agentId: 'agent-1' })).toBe(true);
    expect(scopeMatches(record, { ...record })).toBe(true);
  });

  it('never matches across companies', () => {
    expect(scopeMatches(record, { companyId: 'company-b' })).toBe(false);
    expect(scopeMatches(record, { ...record, companyId: 'company-b' })).toBe(false);
  });

  it('does not match when a request field differs', () => {
    expect(scopeMatches(record, { companyId: 'company-a', agentId: 'agent-2' })).toBe(false);
    expect(scopeMatches(record, { companyId: 'company-a', runId: 'run-4' })).toBe(false);
  });

  it('does not match when the request sets a field the record lacks', () => {
    expect(scopeMatches(record, { companyId: 'company-a', subjectId: 'user-1' })).toBe(false);
    expect(scopeMatches(record, { companyId: 'company-a', namespace: 'default' })).toBe(false);
  });

  it('ignores request fields that are explicitly undefined', () => {
    expect(scopeMatches(record, { companyId: 'company-a', subjectId: undefined })).toBe(true);
  });

  it('checks every scope field', () => {
    const full = Object.fromEntries(memoryScopeFields.map((field) => [field, `${field}-value`])) as unknown as MemoryScope;
    for (const field of memoryScopeFields) {
      expect(scopeMatches(full, { ...full, [field]: 'other' })).toBe(false);
    }
  });
});

describe('normalizeScope', () => {
  it('keeps only the fields that are set, in the stable field order', () => {
    const normalized = normalizeScope({ runId: 'run-3', agentId: undefined, companyId: 'company-a', projectId: 'project-9' });
    expect(normalized).toEqual({ companyId: 'company-a', projectId: 'project-9', runId: 'run-3' });
    expect(Object.keys(normalized)).toEqual(['companyId', 'projectId', 'runId']);
    expect('agentId' in normalized).toBe(false);
  });

  it('gives the same JSON for the same scope written in another key order', () => {
    const left = normalizeScope({ namespace: 'n', companyId: 'c', subjectId: 's' });
    const right = normalizeScope({ companyId: 'c', subjectId: 's', namespace: 'n' });
    expect(JSON.stringify(left)).toBe(JSON.stringify(right));
  });

  it('keeps every scope field', () => {
    const full = Object.fromEntries(memoryScopeFields.map((field) => [field, `${field}-value`])) as unknown as MemoryScope;
    expect(Object.keys(normalizeScope({ ...full }))).toEqual([...memoryScopeFields]);
  });

  it('returns a copy and leaves the input alone', () => {
    const input: MemoryScope = { companyId: 'company-a', agentId: undefined };
    const normalized = normalizeScope(input);
    expect(normalized).not.toBe(input);
    expect(Object.keys(input)).toEqual(['companyId', 'agentId']);
  });
});
