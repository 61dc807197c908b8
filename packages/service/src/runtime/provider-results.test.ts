import { MemoryInvalidResponseError, type MemoryAdapter, type MemoryUsage } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

type Answers = Partial<Record<keyof MemoryAdapter, unknown>>;

/** A raw adapter (not built with defineMemoryAdapter) that answers whatever the test sets. */
function createGarbageProvider(answers: Answers) {
  const answer = (operation: keyof MemoryAdapter) => async () => answers[operation];
  const adapter = {
    specificationVersion: 'v1',
    key: 'garbage',
    capabilities: { profile: true, correction: true, asyncExtraction: true, listExtractionJobs: true },
    capture: answer('capture'),
    upsertRecords: answer('upsertRecords'),
    query: answer('query'),
    list: answer('list'),
    get: answer('get'),
    forget: answer('forget'),
    correct: answer('correct'),
    profile: answer('profile'),
    getExtractionJob: answer('getExtractionJob'),
    listExtractionJobs: answer('listExtractionJobs'),
    retryExtractionJob: answer('retryExtractionJob'),
    explain: answer('explain'),
  } as unknown as MemoryAdapter;
  return { providerId: 'garbage', description: 'Answers garbage (test only).', capabilities: adapter.capabilities, create: () => adapter };
}

const handle = { providerKey: 'garbage', providerRecordId: 'g-1' };

describe('results of adapters not built with defineMemoryAdapter', () => {
  let service: MemoryService;
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(answers: Answers) {
    ({ service, cleanUp } = await createTestService({ providers: [createGarbageProvider(answers)] }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'garbage');
    return service.runtime(as(actors.acmeAdmin));
  }

  const malformed: Array<[string, Answers, (runtime: Awaited<ReturnType<typeof start>>) => Promise<unknown>]> = [
    ['upsertRecords returning 42', { upsertRecords: 42 }, (runtime) => runtime.upsertRecords({ records: [{ text: 'x' }] })],
    ['upsertRecords returning records [{ x: 1 }]', { upsertRecords: { records: [{ x: 1 }] } }, (runtime) => runtime.upsertRecords({ records: [{ text: 'x' }] })],
    ['capture returning null', { capture: null }, (runtime) => runtime.capture({ source: { kind: 'manual_note' }, payload: { text: 'x' } })],
    ['capture returning jobs [{ status: "done" }]', { capture: { jobs: [{ providerJobId: 'j', status: 'done' }] } }, (runtime) => runtime.capture({ source: { kind: 'manual_note' }, payload: { text: 'x' } })],
    ['query returning snippets [{ x: 1 }]', { query: { snippets: [{ x: 1 }] } }, (runtime) => runtime.query({ query: 'q' })],
    ['query returning a string', { query: 'nothing' }, (runtime) => runtime.query({ query: 'q' })],
    ['list returning items "many"', { list: { items: 'many' } }, (runtime) => runtime.list()],
    ['get returning 42', { get: 42 }, (runtime) => runtime.get({ handle })],
    ['forget returning an array', { get: { handle, text: 't', scope: { companyId: 'acme' } }, forget: [] }, (runtime) => runtime.forget({ handles: [handle] })],
    ['correct returning record {}', { get: { handle, text: 't', scope: { companyId: 'acme' } }, correct: { record: {} } }, (runtime) => runtime.correct({ handle, patch: { text: 'y' } })],
    ['profile returning summary 5', { profile: { summary: 5 } }, (runtime) => runtime.profile()],
    ['warnings that are not warnings', { query: { snippets: [], warnings: [{ type: 'loud' }] } }, (runtime) => runtime.query({ query: 'q' })],
  ];

  it.each(malformed)('%s is MemoryInvalidResponseError, logged as failed, with nothing kept', async (_name, answers, call) => {
    const runtime = await start(answers);
    await expect(call(runtime)).rejects.toSatisfy((error) => MemoryInvalidResponseError.isInstance(error));
    const entries = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(entries.map((entry) => [entry.status, entry.errorCode])).toEqual([['failed', 'MEMORY_INVALID_RESPONSE']]);
    const binding = await service.store.getBindingByKey('acme', 'default');
    await service.flush();
    expect(await service.store.getBindingUsage('acme', binding!.id)).toEqual({ records: 0, bytes: 0 });
  });

  it('lists provider jobs it cannot place in the company without their free text, and one of another company not at all', async () => {
    const runtime = await start({
      listExtractionJobs: {
        items: [
          // A shared backend listing every company's jobs: one without a source, one naming another company.
          { providerJobId: 'j-unplaced', status: 'failed', error: 'GLOBEX extraction failed on "the launch code is 0000"' },
          { providerJobId: 'j-globex', status: 'failed', source: { companyId: 'globex', kind: 'manual_note' }, error: 'GLOBEX again' },
          { providerJobId: 'j-acme', status: 'failed', source: { companyId: 'acme', kind: 'manual_note' }, error: 'acme: bad input' },
        ],
      },
    });
    const page = await runtime.listProviderExtractionJobs();
    const stored = await service.explorer(as(actors.acmeAdmin)).listExtractionJobs();
    expect(JSON.stringify([page, stored])).not.toContain('GLOBEX');
    expect(page.items.map((job) => [job.providerJobId, job.error])).toEqual([
      ['j-unplaced', undefined],
      ['j-acme', 'acme: bad input'],
    ]);
    expect(page.warnings).toContainEqual(expect.objectContaining({ type: 'scope_violation', providerRecordId: 'j-unplaced' }));
  });
});

describe('usage counters and the ledger', () => {
  let service: MemoryService;
  let cleanUp: (() => Promise<void>) | undefined;
  afterEach(async () => cleanUp?.());

  async function start(usage: unknown[]) {
    ({ service, cleanUp } = await createTestService({
      providers: [createGarbageProvider({ upsertRecords: { records: [{ providerKey: 'garbage', providerRecordId: 'g-1' }], usage } })],
    }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'garbage');
  }
  const costEvents = async () => (await service.costs(as(actors.acmeAdmin)).listCostEvents()).items;

  it('never books a counter that is negative, infinite or not a number, and says so in a warning', async () => {
    await start([
      { provider: 'garbage', attributionMode: 'billed_directly', billingType: 'metered_api', costCents: -1e9, inputTokens: Number.POSITIVE_INFINITY, outputTokens: 12 },
      { provider: 'garbage', attributionMode: 'billed_directly', costCents: Number.NaN, embeddingTokens: '7' },
      'not usage',
    ]);
    const written = await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: [{ text: 'x' }] });
    const messages = (written.warnings ?? []).map((warning) => (warning.type === 'other' ? warning.message : ''));
    expect(messages.filter((message) => message.includes('was not booked'))).toHaveLength(5);
    expect(written.usage).toEqual([{ provider: 'garbage', attributionMode: 'billed_directly', billingType: 'metered_api', outputTokens: 12 }, { provider: 'garbage', attributionMode: 'billed_directly' }]);
    const events = await costEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outputTokens: 12 });
    expect(events[0]?.costCents).toBeUndefined();
    expect(events[0]?.inputTokens).toBeUndefined();
    const summary = await service.costs(as(actors.acmeAdmin)).summarize({ groupBy: 'company' });
    expect(JSON.stringify(summary)).not.toContain('-1000000000');
  });

  it('books metered usage outside a run as a direct cost even when the provider did not say billed_directly', async () => {
    const metered: MemoryUsage = { provider: 'garbage', billingType: 'metered_api', embeddingTokens: 40, costCents: 0.2 };
    await start([metered]);
    const untracked = await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: [{ text: 'x' }] });
    const inRun = await service.runtime(as(actors.planner, { heartbeatRunId: 'run-1' })).upsertRecords({ records: [{ text: 'y' }] });
    const events = await costEvents();
    expect(events.map((event) => [event.operationId, event.costCents, event.embeddingTokens])).toEqual([[untracked.operationId, 0.2, 40]]);
    const explorer = service.explorer(as(actors.acmeAdmin));
    expect(await explorer.getOperation(untracked.operationId)).toMatchObject({ attributionMode: 'billed_directly', costEventId: events[0]!.id });
    expect(await explorer.getOperation(inRun.operationId)).toMatchObject({ attributionMode: 'included_in_run' });
  });
});
