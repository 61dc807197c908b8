import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { identifierSchema } from '@memplane/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRoutes } from './create-memplane-server';
import { serveMemplane, type ServedMemplane } from './open-memplane-server';

// The real `memplane serve` on a data folder: its zero-config preparation is what a read must never run.
let folder: string;
let data: string;
let served: ServedMemplane;
const token = {} as Record<'operator' | 'listed' | 'admin' | 'agent' | 'adminAcme', string>;
const typo = 'typo-co';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-unknown-company-'));
  data = join(folder, 'data');
  served = await serveMemplane({ dataDirectory: data, port: 0, inspectorDirectory: false, rateLimit: false });
  token.operator = (await served.tokens.issue({ role: 'operator', operatorId: 'ops' })).token;
  token.listed = (await served.tokens.issue({ role: 'operator', operatorId: 'ops-listed', companyIds: [typo, 'fresh-co', 'bound-co'] })).token;
  token.admin = (await served.tokens.issue({ role: 'admin', companyId: typo })).token;
  token.agent = (await served.tokens.issue({ role: 'agent', companyId: typo, agentId: 'planner' })).token;
  token.adminAcme = (await served.tokens.issue({ role: 'admin', companyId: 'acme' })).token;
  // A company in use beside the typo: its markdown folder exists, so the data folder is not empty.
  expect((await call('POST', '/v1/companies/acme/memory/records', token.adminAcme, { records: [{ text: 'Acme deploys on Fridays.' }] })).status).toBe(200);
});
afterAll(async () => {
  await served.close();
  await rm(folder, { recursive: true, force: true });
});

async function call(method: string, path: string, bearer: string, body?: unknown): Promise<{ status: number; body: any; type: string | null }> {
  const response = await fetch(`${served.http.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), type: response.headers.get('content-type') };
}

/** Every file and folder under the data folder, by relative path. */
async function dataFolderEntries(): Promise<string[]> {
  const entries = await readdir(data, { recursive: true, withFileTypes: true });
  return entries.map((entry) => relative(data, join(entry.parentPath, entry.name))).sort();
}

/** What the service holds of a company: bindings, targets, activity and operation log entries. */
async function heldFor(companyId: string) {
  await served.service.whenIdle();
  const store = served.service.store;
  return {
    bindings: await store.listBindings(companyId),
    targets: await store.listTargets(companyId),
    activity: (await store.listActivity(companyId, { limit: 10 })).items,
    operations: (await store.listOperations({ companyId }, { limit: 10 })).items,
  };
}
const nothing = { bindings: [], targets: [], activity: [], operations: [] };

/** A path of a route for `companyId`, its other parameters filled with ids that exist nowhere. */
const pathOf = (route: (typeof serverRoutes)[number], companyId: string) =>
  route.path
    .replace(':companyId', encodeURIComponent(companyId))
    .replace(':bindingKey', 'default')
    .replace(':operationId', 'op_0000000000000000')
    .replace(':jobId', 'job_0000000000000000')
    .replace(':hookKind', 'pre_run_hydrate');

const companyRoutes = serverRoutes.filter((route) => route.path.includes(':companyId'));
// Reads first: they are what must never start a company.
const knownOnly = companyRoutes.filter((route) => route.company === undefined).sort((left, right) => Number(left.method !== 'get') - Number(right.method !== 'get'));

function expectUnknownCompany(answer: { status: number; body: any; type: string | null }, companyId: string, what: string) {
  expect(answer.status, what).toBe(404);
  expect(answer.type, what).toMatch(/^application\/problem\+json/);
  expect(answer.body, what).toMatchObject({ status: 404, code: 'MEMORY_NOT_FOUND', type: 'urn:memplane:problem:MEMORY_NOT_FOUND', title: 'Not Found' });
  expect(answer.body.detail, what).toContain(`"${companyId}"`);
  expect(answer.body.detail, what).not.toContain(data);
}

describe('a company the service does not know', () => {
  it('is read by no route: every route but the runtime writes, the provider list and creating a binding answers 404 MEMORY_NOT_FOUND and provisions nothing, for every token that reaches it', async () => {
    // The reads the inspector and operators make, and the writes that act on what a company already holds.
    expect(knownOnly.map((route) => route.operationId)).toEqual(
      expect.arrayContaining([
        'memory.query', 'memory.list', 'memory.get', 'memory.profile', 'memory.listExtractionJobs', 'memory.forget', 'memory.correct', 'memory.logRefusedCall',
        'control.listBindings', 'control.getBinding', 'control.listTargets', 'control.setTarget', 'control.resolve', 'control.listActivity',
        'explorer.listOperations', 'explorer.getOperation', 'explorer.countOperations', 'explorer.metrics', 'explorer.listHookDeliveries', 'costs.listCostEvents', 'costs.listFinanceEvents', 'costs.summarize', 'costs.recordFinanceEvent',
      ]),
    );
    const before = await dataFolderEntries();
    for (const route of knownOnly) {
      for (const [name, bearer] of Object.entries({ operator: token.operator, listed: token.listed, admin: token.admin, agent: token.agent })) {
        const answer = await call(route.method.toUpperCase(), pathOf(route, typo), bearer, route.body === undefined ? undefined : { records: [{ text: 'x' }], query: 'x' });
        expectUnknownCompany(answer, typo, `${route.method.toUpperCase()} ${route.path} as ${name}`);
      }
    }
    expect(await heldFor(typo)).toEqual(nothing);
    expect(await dataFolderEntries()).toEqual(before);
    expect(before.some((entry) => entry.includes(typo))).toBe(false);
  });

  it('is not told apart from a known one to a token that does not reach it: the policy refuses it (403), and nothing is written', async () => {
    const before = await dataFolderEntries();
    for (const path of [`/v1/companies/${typo}/explorer/operations`, `/v1/companies/${typo}/control/bindings`]) {
      const answer = await call('GET', path, token.adminAcme);
      expect(answer.status, path).toBe(403);
      expect(answer.body.code, path).toBe('MEMORY_SCOPE_VIOLATION');
    }
    expect(await heldFor(typo)).toEqual(nothing);
    expect(await dataFolderEntries()).toEqual(before);
  });

  it('answers 404 to a read of any company id, whatever its characters, and provisions none (property)', async () => {
    const before = await dataFolderEntries();
    const tried: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
          .filter((id) => identifierSchema.safeParse(id).success && id !== '.' && id !== '..' && id !== 'acme'),
        fc.constantFrom('explorer/operations', 'explorer/metrics', 'control/activity', 'control/bindings', 'control/targets', 'explorer/cost-summary?groupBy=day'),
        async (companyId, read) => {
          tried.push(companyId);
          expectUnknownCompany(await call('GET', `/v1/companies/${encodeURIComponent(companyId)}/${read}`, token.operator), companyId, `${read} of ${JSON.stringify(companyId)}`);
        },
      ),
      { numRuns: 40 },
    );
    for (const companyId of tried) expect(await heldFor(companyId), companyId).toEqual(nothing);
    expect(await dataFolderEntries()).toEqual(before);
  });

  it('lists the providers for its first binding, and creating a binding starts it as the operator made it, with no zero-config default beside it', async () => {
    const before = await dataFolderEntries();
    const providers = await call('GET', '/v1/companies/fresh-co/control/providers', token.listed);
    expect(providers.status).toBe(200);
    expect(providers.body.items.map((provider: { providerId: string }) => provider.providerId)).toEqual(expect.arrayContaining(['markdown', 'memory']));
    expect(await heldFor('fresh-co')).toEqual(nothing);
    expect(await dataFolderEntries()).toEqual(before);

    expect((await call('POST', '/v1/companies/bound-co/control/bindings', token.listed, { key: 'scratch', providerId: 'memory' })).status).toBe(201);
    expect((await call('GET', '/v1/companies/bound-co/control/bindings', token.listed)).body.items).toMatchObject([{ key: 'scratch', providerId: 'memory' }]);
    expect((await call('GET', '/v1/companies/bound-co/explorer/operations', token.listed)).status).toBe(200);
  });

  it('is started by its first runtime write, not by a malformed one: the default markdown binding, its folder, then reads answer 200', async () => {
    const company = 'first-write-co';
    const writer = (await served.tokens.issue({ role: 'agent', companyId: company, agentId: 'planner' })).token;
    const before = await dataFolderEntries();
    const malformed = await call('POST', `/v1/companies/${company}/memory/records`, writer, { records: [{ text: '' }] });
    expect(malformed.status).toBe(422);
    expect(await heldFor(company)).toMatchObject({ bindings: [], targets: [], activity: [] });
    expect(await dataFolderEntries()).toEqual(before);

    const written = await call('POST', `/v1/companies/${company}/memory/records`, writer, { records: [{ text: 'The first fact of a new company.' }] });
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ bindingKey: 'default', providerId: 'markdown' });
    const held = await heldFor(company);
    expect(held.bindings).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
    expect(held.activity.length).toBeGreaterThan(0);
    expect((await dataFolderEntries()).filter((entry) => !before.includes(entry)).some((entry) => entry.startsWith(join('markdown', company)))).toBe(true);
    const query = await call('POST', `/v1/companies/${company}/memory/query`, writer, { query: 'first fact' });
    expect(query.status).toBe(200);
    expect(query.body.snippets).toHaveLength(1);
  });

  it('stays known once its bindings are deleted: its history is still there to read', async () => {
    const company = 'bound-co';
    expect((await call('DELETE', `/v1/companies/${company}/control/bindings/scratch`, token.listed)).status).toBe(200);
    expect((await heldFor(company)).bindings).toEqual([]);
    const activity = await call('GET', `/v1/companies/${company}/control/activity`, token.listed);
    expect(activity.status).toBe(200);
    expect(activity.body.items.length).toBeGreaterThan(0);
  });
});
