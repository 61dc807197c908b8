import { memoryScopeFields, type MemoryScope } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { fromMem0Scope, mem0ScopeMetadataKeys, toScopeMetadata } from './mem0-scope-mapping';

const fullScope = Object.fromEntries(memoryScopeFields.map((field) => [field, `${field}-value`])) as unknown as MemoryScope;

describe('mem0 scope mapping', () => {
  it('has a metadata key for every scope field', () => {
    expect(Object.keys(mem0ScopeMetadataKeys).sort()).toEqual([...memoryScopeFields].sort());
  });

  it('rebuilds every scope field from the metadata it wrote', () => {
    expect(fromMem0Scope(fullScope.companyId, toScopeMetadata(fullScope))).toEqual(fullScope);
    for (const field of memoryScopeFields.filter((name) => name !== 'companyId')) {
      const scope = { companyId: 'company-1', [field]: `${field}-only` } as MemoryScope;
      expect(fromMem0Scope('company-1', toScopeMetadata(scope))).toEqual(scope);
    }
  });

  it('ignores scope keys whose stored value is not a string', () => {
    expect(fromMem0Scope('company-1', { memplane_agent: 7, memplane_run: null })).toEqual({ companyId: 'company-1' });
  });
});
