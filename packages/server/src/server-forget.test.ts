import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerHarness, type ServerHarness } from './test-support/server-harness';

let harness: ServerHarness;
beforeAll(async () => {
  harness = await startServerHarness({ rateLimit: false });
});
afterAll(async () => harness.close());

type Handle = { providerKey: string; providerRecordId: string };
const memory = (companyId: string, route: string) => `/v1/companies/${companyId}/memory/${route}`;

async function write(token: string, companyId: string, body: object): Promise<Handle> {
  const written = await harness.call('POST', memory(companyId, 'records'), { token, body });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  return written.body.records[0];
}

const forget = (token: string, handles: Handle[]) => harness.call('POST', memory('acme', 'forget'), { token, body: { handles } });

describe('POST /v1/companies/{companyId}/memory/forget', () => {
  it('answers with the number forgotten: an agent\'s own record counts, another agent\'s does not and stays', async () => {
    const own = await write(harness.token.agentAcme, 'acme', { records: [{ text: 'The planner moves standup to ten.' }] });
    const builders = await write(harness.token.adminAcme, 'acme', { scope: { agentId: 'builder' }, records: [{ text: 'The builder pins the toolchain.' }] });

    const refused = await forget(harness.token.agentAcme, [builders]);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ forgotten: 0, warnings: [{ type: 'scope_violation', providerRecordId: builders.providerRecordId }] });
    const still = await harness.call('POST', memory('acme', 'get'), { token: harness.token.adminAcme, body: { handle: builders } });
    expect(still.body.snippet?.text).toBe('The builder pins the toolchain.');

    const done = await forget(harness.token.agentAcme, [own, builders]);
    expect(done.body).toMatchObject({ forgotten: 1, warnings: [{ type: 'scope_violation', providerRecordId: builders.providerRecordId }] });
  });

  it('reads another company\'s record exactly as one that does not exist: not_found, nothing forgotten', async () => {
    const globex = await write(harness.token.agentGlobex, 'globex', { records: [{ text: 'Globex ships on Thursdays.' }] });
    const missing = { providerKey: globex.providerKey, providerRecordId: `${globex.providerRecordId}-missing` };
    const seen = async (handle: Handle) => {
      const { body, status } = await forget(harness.token.agentAcme, [handle]);
      const { operationId: _id, ...rest } = body;
      return { status, body: JSON.stringify(rest).replaceAll(handle.providerRecordId, '<id>') };
    };
    const never = await seen(missing);
    expect(never.status).toBe(200);
    expect(JSON.parse(never.body)).toMatchObject({ forgotten: 0, warnings: [{ type: 'not_found', providerRecordId: '<id>' }] });
    expect(await seen(globex)).toEqual(never);
    const kept = await harness.call('POST', memory('globex', 'get'), { token: harness.token.agentGlobex, body: { handle: globex } });
    expect(kept.body.snippet?.text).toBe('Globex ships on Thursdays.');
  });

  it('documents forgotten as a required count in the OpenAPI schema of the route', async () => {
    const document = (await harness.call('GET', '/openapi.json')).body;
    const schema = document.paths['/v1/companies/{companyId}/memory/forget'].post.responses['200'].content['application/json'].schema;
    expect(schema.properties.forgotten).toMatchObject({ type: 'integer', minimum: 0 });
    expect(schema.required).toEqual(expect.arrayContaining(['forgotten', 'operationId']));
  });
});
