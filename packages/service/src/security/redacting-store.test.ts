import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryService } from '../service/create-memory-service';
import type { MemoryServiceStore } from '../store/memory-service-store';
import type { MemoryTokenRow } from '../store/memory-token-store';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { createRedactingStore } from './redacting-store';
import { createSecretRedactor } from './secret-redactor';

// A resolved secret that is part of the token's hash and label: a wrapper that redacted token
// writes would store a hash no request matches.
const secret = 'abababababab';
const row: MemoryTokenRow = {
  id: 'tok_cccccccccccccccccccccccc',
  hash: 'ab'.repeat(32),
  role: 'admin',
  grant: { companyId: 'acme' },
  label: `admin of acme ${secret}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
};

describe('the redacting store', () => {
  const opened: MemoryServiceStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('passes the token methods through untouched, with the redactor active', async () => {
    const inner = createSqliteMemoryServiceStore();
    opened.push(inner);
    await inner.migrate();
    const redactor = createSecretRedactor();
    redactor.add([secret]);
    const store = createRedactingStore(inner, redactor);

    expect(await store.insertToken(row)).toBe(true);
    expect(await inner.findTokenByHash(row.hash)).toEqual(row);
    expect(await store.findTokenByHash(row.hash)).toEqual(row);
    expect(await store.listTokens()).toEqual([row]);
    expect(await store.revokeToken(row.id, '2026-01-02T00:00:00.000Z')).toBe(true);
    expect((await inner.findTokenByHash(row.hash))?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
    // Log writes still go through the redactor.
    await store.appendActivity([
      {
        id: 'act_1',
        companyId: 'acme',
        actor: { kind: 'system', id: 'test' },
        action: 'provider.registered',
        subjectType: 'provider',
        subjectId: 'memory',
        before: null,
        after: { note: secret },
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(JSON.stringify((await inner.listActivity('acme', { limit: 5 })).items)).not.toContain(secret);
  });

  it('the store a service exposes to its host has the token table', async () => {
    const service = await createMemoryService();
    try {
      expect(await service.store.insertToken(row)).toBe(true);
      expect(await service.store.findTokenByHash(row.hash)).toEqual(row);
    } finally {
      await service.close();
    }
  });
});
