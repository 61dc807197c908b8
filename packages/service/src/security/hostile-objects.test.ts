import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, bindCompanyDefault, deterministicSettings, withTestProviders } from '../test-support/service-test-support';
import { describeFailure, failureOf, hostileRecipes, plantHostile } from '../test-support/hostile-values';
import { createMemoryTools, type MemoryToolResult } from '../tools/memory-tools';

/** One argument of one entry point under attack: a valid value of it, and the call with it in place. */
interface Target {
  template: unknown;
  call: (value: unknown) => unknown;
}

const agent = as(actors.planner, { heartbeatRunId: 'run-1', client: { name: 'cli', version: '1.0' } });
const admin = as(actors.acmeAdmin);
const operator = as(actors.acmeOperator, { companyId: 'acme' });
const system = as(actors.heartbeat, { companyId: 'acme', heartbeatRunId: 'run-1' });
const scope = { agentId: 'planner', issueId: 'issue-1', projectId: 'project-1' };
// The company may be named too; a getter that names another one on a later read must not reach it.
const ownScope = { companyId: 'acme', ...scope };
const handle = { providerKey: 'memory', providerRecordId: 'record-1' };

const runtimeRequests: Record<string, unknown> = {
  capture: {
    bindingKey: 'default',
    scope: ownScope,
    source: { kind: 'manual_note', companyId: 'acme', issueId: 'issue-1', externalRef: 'note-1' },
    payload: { text: 'we deploy on fridays', mimeType: 'text/plain', metadata: { tags: ['deploys', 'friday'] } },
    mode: 'capture_record',
    metadata: { origin: 'test', nested: { count: 1, list: [true, null, 'x'] } },
  },
  upsertRecords: { scope, source: { kind: 'manual_note', externalRef: 'note-2' }, records: [{ text: 'deploys on fridays', summary: 'deploys', metadata: { tags: ['a'], level: 2 } }] },
  query: { bindingKey: 'default', scope: ownScope, query: 'when do we deploy?', topK: 3, intent: 'answer', metadataFilter: { level: 2 }, explain: false },
  list: { scope, limit: 5, metadataFilter: { tags: ['a'] } },
  get: { scope: ownScope, handle },
  forget: { scope, handles: [handle, { providerKey: 'memory', providerRecordId: 'record-2' }] },
  correct: { scope, handle, patch: { text: 'deploys on mondays', metadata: { fixed: true }, reason: 'moved' } },
  profile: { bindingKey: 'default', scope },
  listProviderExtractionJobs: { scope, cursor: 'cursor-1' },
  retryExtractionJob: { jobId: 'job_00001' },
  refreshExtractionJobs: { bindingKey: 'default', limit: 5 },
  listExtractionJobs: { bindingKey: 'default', statuses: ['failed', 'queued'], hookKind: 'manual_capture', limit: 5 },
  logRefusedCall: { operation: 'query', via: 'memory.search', code: 'MEMORY_VALIDATION', fields: ['query', 'topK'] },
};

const hookInputs: Record<string, unknown> = {
  preRunHydrate: { agentId: 'planner', query: 'deploys', heartbeatRunId: 'run-1', issueId: 'issue-1', projectId: 'project-1', scope: { subjectId: 'subject-1' }, limits: { maxSnippets: 3, maxCharacters: 500 }, timeoutMs: 1000 },
  postRunCapture: { agentId: 'planner', heartbeatRunId: 'run-1', issueId: 'issue-1', output: { text: 'deployed', object: { status: 'ok' }, mimeType: 'text/plain' }, metadata: { run: { attempt: 1 } } },
  issueCommentCapture: { issueId: 'issue-1', commentId: 'comment-1', body: 'we deploy on fridays', authorAgentId: 'planner', metadata: { thread: [1, 2] } },
  issueDocumentCapture: { issueId: 'issue-1', documentKey: 'plan', text: 'the plan', object: { steps: ['a', 'b'] }, mimeType: 'text/markdown', metadata: { version: 3 } },
  manualCapture: { text: 'remember the release train', agentId: 'planner', mode: 'capture_record', externalRef: 'ticket-9', metadata: { source: { system: 'crm' } } },
};

const toolInputs: Record<string, unknown> = {
  'memory.search': { query: 'deploys', topK: 3, reach: 'company', issueId: 'issue-1' },
  'memory.note': { text: 'we deploy on fridays', kind: 'fact', tags: ['deploys', 'friday'] },
  'memory.forget': { recordIds: ['memory:record-1', 'memory:record-2'] },
  'memory.correct': { recordId: 'memory:record-1', text: 'mondays', reason: 'moved' },
  'memory.list': { limit: 5, reach: 'agent', issueId: 'issue-1' },
  'memory.get': { recordId: 'memory:record-1' },
  'memory.profile': {},
  'memory.jobs': { cursor: 'cursor-1' },
};

const bindingInput = {
  key: 'hostile',
  providerId: 'kb',
  config: { region: 'eu', retries: 2, nested: { list: [1, 'two', { deep: true }] } },
  enabled: true,
  hooks: { postRunCapture: true, issueCommentCapture: false },
  quota: { maxRecords: 10, maxBytes: 1000 },
};

/** Every entry point of the service, each with one argument under attack and the others valid. */
function targets(serviceOf: () => MemoryService): Record<string, Target> {
  const service = new Proxy({} as MemoryService, { get: (_target, property) => Reflect.get(serviceOf(), property) });
  const runtime = () => service.runtime(agent) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const control = () => service.control(admin) as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>;
  const explorer = () => service.explorer(admin) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const costs = () => service.costs(admin) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const hooks = () => service.hooks as unknown as Record<string, (context: unknown, input: unknown) => Promise<unknown>>;
  const found: Record<string, Target> = {
    'runtime(context)': { template: agent, call: (value) => (service.runtime(value as never) as unknown as Record<string, (request: unknown) => Promise<unknown>>).query!({ query: 'deploys' }) },
    'control(context)': { template: admin, call: (value) => service.control(value as never).listBindings() },
    'control.createBinding(input)': { template: bindingInput, call: (value) => control().createBinding!(value) },
    'control.updateBinding(key)': { template: 'spare', call: (value) => control().updateBinding!(value, { enabled: true }) },
    'control.updateBinding(input)': { template: { ...bindingInput, key: 'spare' }, call: (value) => control().updateBinding!('spare', value) },
    'control.setTarget(target)': { template: { targetType: 'agent', agentId: 'builder' }, call: (value) => control().setTarget!(value, 'spare') },
    'control.setTarget(key)': { template: 'spare', call: (value) => control().setTarget!({ targetType: 'agent', agentId: 'builder' }, value) },
    'control.removeTarget(target)': { template: { targetType: 'agent', agentId: 'builder' }, call: (value) => control().removeTarget!(value) },
    'control.getBinding(key)': { template: 'spare', call: (value) => control().getBinding!(value) },
    'control.deleteBinding(key)': { template: 'absent', call: (value) => control().deleteBinding!(value) },
    'control.resolve(agentId)': { template: 'planner', call: (value) => control().resolve!(value) },
    'control.listActivity(request)': { template: { limit: 5 }, call: (value) => control().listActivity!(value) },
    'explorer(context)': { template: admin, call: (value) => service.explorer(value as never).listOperations({ limit: 5 }) },
    'explorer.listOperations(request)': { template: { agentId: 'planner', actor: 'planner', actorKind: 'agent', status: 'failed', from: '2020-01-01T00:00:00Z', limit: 5 }, call: (value) => explorer().listOperations!(value) },
    'explorer.getOperation(id)': { template: 'op_00001', call: (value) => explorer().getOperation!(value) },
    'explorer.countOperations(range)': { template: { from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' }, call: (value) => explorer().countOperations!(value) },
    'explorer.listHookDeliveries(request)': { template: { hookKind: 'manual_capture', status: 'failed', limit: 5 }, call: (value) => explorer().listHookDeliveries!(value) },
    'explorer.metrics(range)': { template: { from: '2020-01-01T00:00:00Z', bindingKey: 'default' }, call: (value) => explorer().metrics!(value) },
    'costs(context)': { template: admin, call: (value) => service.costs(value as never).summarize({ groupBy: 'agent' }) },
    'costs.recordFinanceEvent(input)': {
      template: { kind: 'invoice', biller: 'acme-cloud', amountCents: 1200, bindingKey: 'default', agentId: 'planner', periodStart: '2026-01-01T00:00:00Z', metadata: { invoice: { number: 'INV-1', lines: [1, 2] } } },
      call: (value) => costs().recordFinanceEvent!(value),
    },
    'costs.listCostEvents(query)': { template: { bindingKey: 'default', agentId: 'planner', limit: 5 }, call: (value) => costs().listCostEvents!(value) },
    'costs.summarize(request)': { template: { groupBy: 'binding', from: '2020-01-01T00:00:00Z' }, call: (value) => costs().summarize!(value) },
    'pruneOperationLog(context)': { template: admin, call: (value) => service.pruneOperationLog(value as never, { before: '2020-01-01T00:00:00Z' }) },
    'pruneOperationLog(request)': { template: { before: '2020-01-01T00:00:00Z' }, call: (value) => service.pruneOperationLog(admin, value as never) },
    'providers.register(context)': { template: operator, call: (value) => service.providers.register(value as never, { providerId: 'memory', description: 'again', create: () => createMemoryAdapter() }) },
    'hooks.subscribe(kinds)': { template: ['manual_capture', 'post_run_capture'], call: (value) => service.hooks.subscribe(value as never, { name: 'listener', deliver: () => undefined })() },
    'startWorker(options)': { template: { concurrency: 1 }, call: async (value) => (await service.startWorker(value as never)).stop() },
    'createMemoryTools(options)': { template: { capabilities: { profile: true } }, call: (value) => createMemoryTools(service, value as never) },
    'hooks.enqueue(context)': { template: system, call: (value) => service.hooks.enqueue('manual_capture', value as never, hookInputs.manualCapture as never) },
    'hooks.enqueue(input)': { template: hookInputs.manualCapture, call: (value) => service.hooks.enqueue('manual_capture', system, value as never) },
  };
  for (const [method, request] of Object.entries(runtimeRequests)) {
    found[`runtime.${method}(request)`] = { template: request, call: (value) => runtime()[method]!(value) };
  }
  for (const [method, input] of Object.entries(hookInputs)) {
    found[`hooks.${method}(context)`] = { template: system, call: (value) => hooks()[method]!(value, input) };
    found[`hooks.${method}(input)`] = { template: input, call: (value) => hooks()[method]!(system, value) };
  }
  for (const tool of createMemoryTools({ runtime: (context) => service.runtime(context) }, { capabilities: { profile: true, listExtractionJobs: true } })) {
    const input = toolInputs[tool.name];
    if (input === undefined) throw new TypeError(`no input for tool ${tool.name}`);
    const toolContext = { ...agent, issueId: 'issue-1', projectId: 'project-1' };
    // A refused model input comes back as a result with a memplane code; only a host's bad context throws.
    const checked = async (result: Promise<MemoryToolResult>) => {
      const answer = await result;
      if (answer.isError && !answer.error.code.startsWith('MEMORY_')) throw new TypeError(`${tool.name} answered ${answer.error.code}`);
      return answer;
    };
    found[`tool ${tool.name}(input)`] = { template: input, call: (value) => checked(tool.execute(value, toolContext)) };
    found[`tool ${tool.name}(context)`] = { template: toolContext, call: (value) => checked(tool.execute(input, value as never)) };
  }
  return found;
}

describe('hostile objects (throwing getters and proxies, revoked proxies, throwing conversions, changing getters)', () => {
  let directory: string;
  let service: MemoryService;
  let database: Database.Database;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'memplane-hostile-'));
    service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename: join(directory, 'service.db') }),
      dataDirectory: directory,
      providers: withTestProviders([{ providerId: 'kb', description: 'any config', capabilities: {}, create: () => createMemoryAdapter() }]),
      // A resolved secret turns the redactor on, so every error also goes through it.
      environment: { KB_TOKEN: 'kb-token-value-0123' },
      secretEnvironment: { acme: ['KB_TOKEN'] },
      ...deterministicSettings(),
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await service.control(admin).createBinding({ key: 'spare', providerId: 'kb', config: { token: { $secret: { env: 'KB_TOKEN' } } } });
    await service.whenIdle();
    database = new Database(join(directory, 'service.db'), { readonly: true });
  });
  afterAll(async () => {
    database.close();
    await service.close();
    rmSync(directory, { recursive: true, force: true });
  });

  // The audit trail records refused calls on purpose; everything else must stay as it was.
  const auditTables = new Set(['memory_operations', 'memory_operation_hours', 'memory_activity']);

  async function rowCounts(): Promise<Record<string, number>> {
    await service.whenIdle();
    const tables = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>)
      .filter(({ name }) => !auditTables.has(name));
    return Object.fromEntries(tables.map(({ name }) => [name, (database.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  }

  /** Bindings other than the two the tests use, made by a call that read a valid value, go again. */
  async function dropNewBindings(): Promise<void> {
    const control = service.control(admin);
    for (const binding of await control.listBindings()) {
      if (binding.key !== 'default' && binding.key !== 'spare') await control.deleteBinding(binding.key);
    }
  }

  it.each(Object.entries(targets(() => service)))('%s fails with a memplane error and writes nothing', async (name, { template, call }) => {
    const escaped: string[] = [];
    await fc.assert(
      fc.asyncProperty(hostileRecipes(template), async (recipe) => {
        const before = await rowCounts();
        const outcome = await failureOf(() => call(plantHostile(template, recipe)));
        if (!outcome.failed) {
          await dropNewBindings();
          return;
        }
        if (!MemoryError.isInstance(outcome.error)) escaped.push(`${fc.stringify(recipe)}: ${describeFailure(outcome.error)}`);
        expect(await rowCounts(), `${name} with ${fc.stringify(recipe)} failed but wrote`).toEqual(before);
      }),
      { numRuns: 100 },
    );
    expect(escaped.slice(0, 10)).toEqual([]);
  }, 60_000);
});
