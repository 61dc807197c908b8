import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInMemoryTokenTable } from '../test-support/in-memory-token-table';
import { createMemplaneTokenStore } from './memplane-token-store';
import { tokenHashOf } from './token-row';

const forged = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

describe('attacks on the token store', () => {
  it('refuses forged tokens, tokens of another shape, and anything that is not a string, without granting', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table);
    const { token } = await tokens.issue({ role: 'operator', operatorId: 'ops' });
    const attempts: unknown[] = [
      forged('mpk_'),
      forged('mps_'),
      forged('mpt_'),
      `${token}x`,
      token.slice(0, -1),
      token.toUpperCase(),
      ` ${token}`,
      `${token}\n`,
      token.replace('mpk_', 'mpx_'),
      // The hash itself is not a token: someone who reads the database cannot sign in with what they read.
      table.rows[0]?.hash,
      `mpk_${table.rows[0]?.hash}`,
      'mpk_',
      '',
      `mpk_${'A'.repeat(10_000)}`,
      undefined,
      null,
      42,
      { toString: () => token },
      [token],
    ];
    for (const attempt of attempts) expect(await tokens.verify(attempt as string), String(attempt)).toBeUndefined();
    expect(await tokens.verify(token)).toBeDefined();
  });

  it('refuses the token of a revoked grant, even when a second row with the same grant is live', async () => {
    const tokens = createMemplaneTokenStore(createInMemoryTokenTable());
    const revoked = await tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' });
    const live = await tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' });
    await tokens.revoke(revoked.record.id);
    expect(await tokens.verify(revoked.token)).toBeUndefined();
    expect(await tokens.verify(live.token)).toMatchObject({ id: live.record.id });
  });

  // Write access to the database is an operator's power (it could insert a row of its own), so a row
  // edited into another whole grant is honoured as that grant; what is refused is anything else.
  it('refuses a row edited in the database into a wider grant that is no whole grant of its role', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table);
    const { token } = await tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' });
    const original = structuredClone(table.rows[0]!);
    const edits: Array<(row: typeof original) => void> = [
      // An agent promoted to operator keeps its agent fields: no operator grant.
      (row) => (row.role = 'operator'),
      (row) => (row.role = 'admin'),
      (row) => (row.grant = { ...row.grant, companyIds: ['acme', 'globex'] }),
      (row) => (row.grant = { ...row.grant, actAsAgents: true }),
      (row) => (row.grant = { ...row.grant, role: 'operator' }),
      (row) => (row.grant = { ...row.grant, companyId: ['acme', 'globex'] }),
      (row) => (row.grant = { agentId: 'planner' }),
      // An own `__proto__` key, as JSON from the database carries it.
      (row) => (row.grant = JSON.parse('{"companyId":"acme","agentId":"planner","__proto__":{"operatorId":"ops"}}') as never),
      (row) => (row.role = 'Operator' as never),
      (row) => (row.grant = null as never),
      (row) => (row.grant = [] as never),
      (row) => (row.expiresAt = 'never'),
      (row) => (row.revokedAt = 'not yet'),
      (row) => (row.createdAt = ''),
      (row) => (row.id = '../tok'),
      (row) => (row.label = 42 as never),
    ];
    for (const [index, edit] of edits.entries()) {
      const row = structuredClone(original);
      edit(row);
      table.rows[0] = row;
      expect(await tokens.verify(token), `edit ${index}`).toBeUndefined();
      expect(await tokens.list(), `edit ${index}`).toEqual([]);
    }
    table.rows[0] = original;
    expect(await tokens.verify(token)).toBeDefined();
  });

  it('refuses a row whose hash does not match the token, as from a store that matched loosely', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table);
    const { token } = await tokens.issue({ role: 'operator', operatorId: 'ops' });
    const other = forged('mpk_');
    // A store that answers any hash with the first row.
    table.findTokenByHash = async () => structuredClone(table.rows[0]);
    expect(await tokens.verify(other)).toBeUndefined();
    expect(await tokens.verify(token)).toBeDefined();
    table.rows[0]!.hash = tokenHashOf(token).toUpperCase();
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('refuses an expired token whose row had its expiry pushed into a malformed date', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table, { now: () => now });
    const { token } = await tokens.issue({ role: 'admin', companyId: 'acme' }, { expiresAt: new Date('2026-01-01T01:00:00Z') });
    now = new Date('2026-01-01T02:00:00Z');
    expect(await tokens.verify(token)).toBeUndefined();
    table.rows[0]!.expiresAt = '+275760-09-13T00:00:00.001Z';
    expect(await tokens.verify(token)).toBeUndefined();
  });
});
