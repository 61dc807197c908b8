import { MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createInMemoryTokenTable } from '../test-support/in-memory-token-table';
import { createMemplaneTokenStore } from './memplane-token-store';
import type { MemplaneTokenGrant } from './token-grant';
import { tokenHashOf } from './token-row';

const isValidationError = (error: unknown) => MemoryValidationError.isInstance(error);

describe('the token store', () => {
  it('returns a token once and keeps only its SHA-256, with the grant, label and dates', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table, { now: () => new Date('2026-01-01T00:00:00Z') });
    const { token, record } = await tokens.issue(
      { role: 'agent', companyId: 'acme', agentId: 'planner', projectId: 'apollo' },
      { label: 'ci', expiresAt: new Date('2026-02-01T00:00:00Z') },
    );
    expect(token).toMatch(/^mpk_[A-Za-z0-9_-]{43}$/);
    expect(record).toEqual({
      role: 'agent',
      companyId: 'acme',
      agentId: 'planner',
      projectId: 'apollo',
      id: expect.stringMatching(/^tok_[A-Za-z0-9_-]{24}$/),
      label: 'ci',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-02-01T00:00:00.000Z',
    });
    expect(table.rows).toEqual([
      {
        id: record.id,
        hash: tokenHashOf(token),
        role: 'agent',
        grant: { companyId: 'acme', agentId: 'planner', projectId: 'apollo' },
        label: 'ci',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-02-01T00:00:00.000Z',
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(table.rows)).not.toContain(token.slice(4));
    expect(await tokens.verify(token)).toEqual(record);
    expect(await tokens.list()).toEqual([record]);
  });

  it('issues each role of the server and the MCP server, and refuses a grant that is not whole before writing', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table);
    const grants: MemplaneTokenGrant[] = [
      { role: 'operator', operatorId: 'ops' },
      { role: 'operator', operatorId: 'relay', companyIds: ['acme', 'globex'], actAsAgents: true, requestsPerMinute: 1200 },
      { role: 'admin', companyId: 'acme', userId: 'ada' },
      { role: 'agent', companyId: 'acme', agentId: 'planner', requestsPerMinute: 60 },
    ];
    for (const grant of grants) {
      const { token } = await tokens.issue(grant);
      expect(await tokens.verify(token)).toMatchObject(grant);
    }
    const wrong: unknown[] = [
      { role: 'owner', companyId: 'acme' },
      { role: 'agent', companyId: 'acme' },
      { role: 'agent', companyId: 'acme', agentId: 'planner', operatorId: 'ops' },
      { role: 'admin', companyId: 'acme', projectId: 'apollo' },
      { role: 'operator', operatorId: 'ops', companyIds: [] },
      { role: 'operator', operatorId: 'ops', actAsAgents: false },
      { role: 'agent', companyId: 'a\u0000b', agentId: 'planner' },
      { role: 'agent', companyId: 'acme', agentId: 'planner', requestsPerMinute: 0 },
    ];
    for (const grant of wrong) await expect(tokens.issue(grant as never), JSON.stringify(grant)).rejects.toSatisfy(isValidationError);
    const options: unknown[] = [{ label: '' }, { label: 'x'.repeat(201) }, { expiresAt: new Date('2000-01-01T00:00:00Z') }, { expiresAt: new Date(Number.NaN) }, { extra: true }];
    for (const option of options) await expect(tokens.issue({ role: 'operator', operatorId: 'ops' }, option as never)).rejects.toSatisfy(isValidationError);
    expect(table.rows).toHaveLength(grants.length);
  });

  it('reads the database on every verify, so a revocation by another process is refused at the next call', async () => {
    const table = createInMemoryTokenTable();
    const here = createMemplaneTokenStore(table);
    const elsewhere = createMemplaneTokenStore(table);
    const { token, record } = await here.issue({ role: 'admin', companyId: 'acme' });
    expect(await here.verify(token)).toBeDefined();
    const reads = table.reads;
    expect(await here.verify(token)).toBeDefined();
    expect(table.reads).toBe(reads + 1);
    expect(await elsewhere.revoke(record.id)).toBe(true);
    expect(await here.verify(token)).toBeUndefined();
    // Revoking again says it is revoked, and keeps the first date; an unknown id is no token.
    const revokedAt = table.rows[0]?.revokedAt;
    expect(await elsewhere.revoke(record.id)).toBe(true);
    expect(table.rows[0]?.revokedAt).toBe(revokedAt);
    expect(await elsewhere.revoke('tok_000000000000000000000000')).toBe(false);
    expect(await elsewhere.revoke('not an id')).toBe(false);
    expect(await here.list()).toMatchObject([{ id: record.id, revokedAt }]);
  });

  it('refuses a token once it expires', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const tokens = createMemplaneTokenStore(createInMemoryTokenTable(), { now: () => now });
    const { token } = await tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' }, { expiresAt: new Date('2026-01-02T00:00:00Z') });
    now = new Date('2026-01-01T23:59:59.999Z');
    expect(await tokens.verify(token)).toBeDefined();
    now = new Date('2026-01-02T00:00:00Z');
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('passes a failing database on to the caller instead of answering for it', async () => {
    const table = createInMemoryTokenTable();
    const tokens = createMemplaneTokenStore(table);
    const { token } = await tokens.issue({ role: 'operator', operatorId: 'ops' });
    const failure = new Error('connection refused');
    table.findTokenByHash = async () => {
      throw failure;
    };
    await expect(tokens.verify(token)).rejects.toBe(failure);
  });
});
