import { MemoryNotFoundError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService } from '@memplane/service';
import { isKnownCompany, unknownCompanyError } from './known-company';

describe('a known company', () => {
  it('is one with a binding or a binding history; reading whether it is changes nothing', async () => {
    const service = await createMemoryService({ providers: [memoryProvider] });
    try {
      const admin = service.control({ actor: { kind: 'company', companyId: 'acme', userId: 'ada' } });
      expect(await isKnownCompany(service, 'test', 'acme')).toBe(false);
      // Asking leaves no trace that would make it known.
      expect(await isKnownCompany(service, 'test', 'acme')).toBe(false);
      expect(await service.store.listActivity('acme', { limit: 10 })).toMatchObject({ items: [] });
      await admin.createBinding({ key: 'scratch', providerId: 'memory' });
      expect(await isKnownCompany(service, 'test', 'acme')).toBe(true);
      await admin.deleteBinding('scratch');
      expect(await service.store.listBindings('acme')).toEqual([]);
      expect(await isKnownCompany(service, 'test', 'acme')).toBe(true);
      expect(await isKnownCompany(service, 'test', 'globex')).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('is refused by name with MEMORY_NOT_FOUND when it is not known', () => {
    const error = unknownCompanyError('typo-co');
    expect(MemoryNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEMORY_NOT_FOUND', resourceId: 'typo-co' });
    expect(error.message).toContain('"typo-co"');
  });
});
