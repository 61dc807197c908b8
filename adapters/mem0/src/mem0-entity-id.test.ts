import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityIdPrefix, isForeignEntityId, qualifiedEntityId, readQualifiedEntityId } from './mem0-entity-id';

describe('mem0 entity ids', () => {
  it('hold no character a path router or URI encoding would change', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1 }), (companyId, value) => {
        const id = qualifiedEntityId(companyId, value);
        expect(id).toMatch(/^[A-Za-z0-9_.~-]+$/);
        expect(encodeURIComponent(id)).toBe(id);
        expect(decodeURIComponent(id)).toBe(id);
      }),
    );
  });

  it('are reversible and collision-free', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b, c, d) => {
        expect(readQualifiedEntityId(qualifiedEntityId(a, b))).toEqual({ companyId: a, value: b });
        if (a !== c || b !== d) expect(qualifiedEntityId(a, b)).not.toBe(qualifiedEntityId(c, d));
      }),
    );
    // The pairs that broke the slash form: the separator and escape characters inside a part.
    expect(qualifiedEntityId('a~b', 'c')).not.toBe(qualifiedEntityId('a', 'b~c'));
    expect(qualifiedEntityId('a.7E', 'c')).not.toBe(qualifiedEntityId('a~', 'c'));
    expect(readQualifiedEntityId('acme/alice')).toBeUndefined();
    expect(readQualifiedEntityId('acme~al.ZZ')).toBeUndefined();
  });

  it('tell another company apart, in the current and the older slash form', () => {
    expect(isForeignEntityId(qualifiedEntityId('acme', 'alice'), 'acme')).toBe(false);
    expect(isForeignEntityId(qualifiedEntityId('acme', 'alice'), 'globex')).toBe(true);
    expect(isForeignEntityId(qualifiedEntityId('a~b', 'c'), 'a')).toBe(true);
    expect(isForeignEntityId('acme/alice', 'acme')).toBe(false);
    expect(isForeignEntityId('globex/alice', 'acme')).toBe(true);
    expect(isForeignEntityId('a~b/c', 'a')).toBe(true);
    expect(isForeignEntityId('plain-user', 'acme')).toBe(false);
    expect(entityIdPrefix('acme/eu')).toBe('acme.2Feu~');
  });
});
