import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySnapshot } from './test-support/company-snapshot';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
let relay: string;
let relayAcme: string;

beforeAll(async () => {
  harness = await startServerHarness({ rateLimit: false });
  relay = (await harness.tokens.issue({ role: 'operator', operatorId: 'paperclip', actAsAgents: true })).token;
  relayAcme = (await harness.tokens.issue({ role: 'operator', operatorId: 'paperclip-acme', companyIds: ['acme'], actAsAgents: true })).token;
});
afterAll(async () => harness.close());

const records = '/v1/companies/acme/memory/records';
const asAgent = (agentId: string) => ({ 'memplane-agent-id': agentId });

describe('an operator token acting as an agent (Memplane-Agent-Id)', () => {
  it('runs the call as that agent: logged with the agent as actor, its own records and the shared ones readable, another agent\'s not', async () => {
    for (const [agentId, text] of [['planner', 'The planner keeps the roadmap.'], ['builder', 'The builder owns the build cache.']] as const) {
      const written = await harness.call('POST', records, { token: relay, headers: asAgent(agentId), body: { records: [{ text }] } });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
    }
    const shared = await harness.call('POST', records, { token: harness.token.adminAcme, body: { records: [{ text: 'The whole company deploys on Fridays.' }] } });
    expect(shared.status).toBe(200);
    const listed = await harness.call('POST', '/v1/companies/acme/memory/list', { token: relay, headers: asAgent('planner'), body: {} });
    expect(listed.status).toBe(200);
    const texts = listed.body.items.map((item: { text: string }) => item.text);
    expect(texts).toContain('The planner keeps the roadmap.');
    expect(texts).toContain('The whole company deploys on Fridays.');
    expect(texts).not.toContain('The builder owns the build cache.');
    const operations = await harness.call('GET', '/v1/companies/acme/explorer/operations?limit=10&operation=record_upsert', { token: harness.token.adminAcme });
    expect(operations.body.items.map((entry: { actor: unknown }) => entry.actor)).toEqual(
      expect.arrayContaining([{ kind: 'agent', id: 'planner' }, { kind: 'agent', id: 'builder' }]),
    );
  });

  it('cannot write as another agent through the scope once it acts as one', async () => {
    const before = await companySnapshot(harness.service, 'acme');
    const response = await harness.call('POST', records, { token: relay, headers: asAgent('planner'), body: { scope: { agentId: 'builder' }, records: [{ text: 'Planted for the builder.' }] } });
    expect(response.status).toBe(403);
    expect(JSON.stringify(await companySnapshot(harness.service, 'acme'))).not.toContain('Planted for the builder.');
    expect((await companySnapshot(harness.service, 'acme')).operations.length).toBe(before.operations.length + 1);
  });

  it('refuses the header from a token that may not act as an agent, before anything is written', async () => {
    const before = await companySnapshot(harness.service, 'acme');
    const refused: Array<[string, string, Record<string, string>]> = [
      ['an operator without --act-as-agents', harness.token.operator, asAgent('planner')],
      ['an acme-only relay on globex', relayAcme, asAgent('spy')],
      ['a company admin', harness.token.adminAcme, asAgent('planner')],
      ['an agent naming another agent', harness.token.agentAcme, asAgent('builder')],
    ];
    for (const [who, token, headers] of refused) {
      const path = who.includes('globex') ? '/v1/companies/globex/memory/records' : records;
      const response = await harness.call('POST', path, { token, headers, body: { records: [{ text: `Planted by ${who}.` }] } });
      expect(`${who}: ${response.status}`).toBe(`${who}: 403`);
      expect(response.body).toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
    }
    expect(await companySnapshot(harness.service, 'acme')).toEqual(before);
    expect(JSON.stringify(await companySnapshot(harness.service, 'globex'))).not.toContain('Planted');
  });

  it('lets an agent token name itself, and refuses a malformed agent id naming the header', async () => {
    const own = await harness.call('POST', '/v1/companies/acme/memory/list', { token: harness.token.agentAcme, headers: asAgent('planner'), body: {} });
    expect(own.status).toBe(200);
    for (const value of ['', ' ', 'a'.repeat(300), 'planner\u0000']) {
      const response = await harness.call('POST', '/v1/companies/acme/memory/list', { token: relay, headers: { 'memplane-agent-id': value }, body: {} }).catch(() => undefined);
      // A header value fetch itself refuses to send (a NUL) never reaches the server.
      if (response === undefined) continue;
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.issues[0].path).toBe('memplane-agent-id');
    }
  });

  it('keeps the control plane and the explorer closed to a call acting as an agent', async () => {
    for (const path of ['/v1/companies/acme/control/bindings', '/v1/companies/acme/explorer/operations']) {
      const response = await harness.call('GET', path, { token: relay, headers: asAgent('planner') });
      expect(`${path} ${response.status}`).toBe(`${path} 403`);
    }
  });
});
