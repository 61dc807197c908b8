import { describe, expect, it } from 'vitest';
import { defaultPackageName, packageNameSchema, providerIdSchema, toProviderNames } from './provider-names';

describe('provider names', () => {
  it('spells a kebab-case id in every case', () => {
    expect(toProviderNames('acme-memory')).toEqual({
      kebab: 'acme-memory',
      pascal: 'AcmeMemory',
      camel: 'acmeMemory',
      constant: 'ACME_MEMORY',
    });
    expect(toProviderNames('mem0')).toEqual({ kebab: 'mem0', pascal: 'Mem0', camel: 'mem0', constant: 'MEM0' });
    expect(toProviderNames('big-2-brain')).toEqual({
      kebab: 'big-2-brain',
      pascal: 'Big2Brain',
      camel: 'big2Brain',
      constant: 'BIG_2_BRAIN',
    });
  });

  it('accepts kebab-case ids only', () => {
    for (const valid of ['acme-memory', 'mem0', 'zep', 'a1-b2'])
      expect(providerIdSchema.safeParse(valid).success).toBe(true);
    for (const invalid of ['Acme', 'acme_memory', '-acme', 'acme-', 'acme--memory', '1acme', 'a', 'acme memory', '']) {
      expect(providerIdSchema.safeParse(invalid).success, invalid).toBe(false);
    }
  });

  it('checks package names and derives the default one', () => {
    expect(defaultPackageName('acme-memory')).toBe('memplane-adapter-acme-memory');
    for (const valid of ['memplane-adapter-acme', '@acme/memplane-adapter', 'acme.memory'])
      expect(packageNameSchema.safeParse(valid).success).toBe(true);
    for (const invalid of ['Acme', '@acme', '.hidden', '_private', 'has space', '@/x']) {
      expect(packageNameSchema.safeParse(invalid).success, invalid).toBe(false);
    }
  });
});
