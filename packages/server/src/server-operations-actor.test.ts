import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
beforeAll(async () => {
  harness = await startServerHarness({ rateLimit: false });
});
afterAll(async () => harness.close());

const operations = (query: string, token = harness.token.adminAcme) => harness.call('GET', `/v1/companies/acme/explorer/operations?${query}`, { token });
const described = (items: Array<{ operation: string; status: string; actor: { kind: string; id: string }; scope: { agentId?: string } }>) =>
  items.map((entry) => `${entry.operation}:${entry.status}:${entry.actor.kind}:${entry.actor.id}:${entry.scope.agentId ?? '-'}`);

describe('GET /explorer/operations?actor=', () => {
  it("answers what an agent did: its company-wide search and its refused attempt on another company, which no scope filter finds", async () => {
    const planner = harness.token.agentAcme;
    expect((await harness.call('POST', '/v1/companies/acme/memory/records', { token: planner, body: { records: [{ text: 'The deploy window is Tuesday.' }] } })).status).toBe(200);
    // A search of the whole company: the body names no agent.
    expect((await harness.call('POST', '/v1/companies/acme/memory/query', { token: planner, body: { query: 'deploy window' } })).status).toBe(200);
    // The planner's token on another company's route: refused, and logged under the planner's own company.
    expect((await harness.call('POST', '/v1/companies/globex/memory/query', { token: planner, body: { query: 'launch codes' } })).status).toBe(403);
    // An operator's call in the planner's scope: the scope names the planner, the operator called.
    expect((await harness.call('POST', '/v1/companies/acme/memory/query', { token: harness.token.operator, body: { query: 'deploy', scope: { agentId: 'planner' } } })).status).toBe(200);

    const byActor = await operations('actor=planner');
    expect(byActor.status).toBe(200);
    expect(described(byActor.body.items)).toEqual(['query:failed:agent:planner:-', 'query:succeeded:agent:planner:-', 'record_upsert:succeeded:agent:planner:planner']);
    expect(byActor.body.items[0]).toMatchObject({ errorCode: 'MEMORY_SCOPE_VIOLATION', companyId: 'acme' });
    expect(described((await operations('actor=planner&actorKind=agent&status=failed')).body.items)).toEqual(['query:failed:agent:planner:-']);
    expect((await operations('actor=planner&actorKind=operator')).body.items).toEqual([]);
    expect(described((await operations('actor=ops')).body.items)).toEqual(['query:succeeded:operator:ops:planner']);
    // The scope filter answers another question.
    expect(described((await operations('agentId=planner')).body.items)).toEqual(['query:succeeded:operator:ops:planner', 'record_upsert:succeeded:agent:planner:planner']);
    // The other company never sees acme's entries, by actor or otherwise.
    expect((await harness.call('GET', '/v1/companies/globex/explorer/operations?actor=planner', { token: harness.token.adminGlobex })).body.items).toEqual([]);
  });

  it('refuses the actor kind alone, and a malformed actor, naming the parameter', async () => {
    const kindAlone = await operations('actorKind=agent');
    expect(kindAlone.status).toBe(422);
    expect(JSON.stringify(kindAlone.body)).toContain('actorKind');
    expect((await operations('actorKind=robot&actor=planner')).status).toBe(422);
    const long = await operations(`actor=${'x'.repeat(1000)}`);
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain('actor');
  });
});
