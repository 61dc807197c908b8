import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '@memplane/core';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, bindCompanyDefault, deterministicSettings, testProviders } from '../test-support/service-test-support';
import { createMemoryTools } from '../tools/memory-tools';

// Anything a caller could pass where a method expects something else; each of these is tried every run.
const hostile: unknown[] = [null, undefined, 0, -1, Number.NaN, '', ' ', 'constructor', '__proto__', 'toString', true, [], {}, [null], { __proto__: null }, () => undefined, Symbol('x'), 10n];
const garbage = fc.oneof(fc.constantFrom(...hostile), fc.anything({ maxDepth: 2 }));

type Call = (value: unknown) => unknown;

/**
 * Every public method of a service, each with one argument under attack and the others valid.
 * Values a method legitimately accepts (an empty list request, say) may succeed; a failure must be
 * a memplane error, and a failed call must write nothing.
 */
function publicCalls(service: MemoryService): Record<string, Call> {
  const agent = as(actors.planner);
  const admin = as(actors.acmeAdmin);
  const system = as(actors.heartbeat, { companyId: 'acme' });
  const runtime = () => service.runtime(agent) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const control = () => service.control(admin) as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>;
  const explorer = () => service.explorer(admin) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const costs = () => service.costs(admin) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const hooks = service.hooks as unknown as Record<string, (...values: unknown[]) => unknown>;
  const calls: Record<string, Call> = {
    'runtime(context)': (value) => service.runtime(value as never),
    'control(context)': (value) => service.control(value as never),
    'explorer(context)': (value) => service.explorer(value as never),
    'costs(context)': (value) => service.costs(value as never),
    'pruneOperationLog(context)': (value) => service.pruneOperationLog(value as never, { before: '2020-01-01T00:00:00Z' }),
    'pruneOperationLog(request)': (value) => service.pruneOperationLog(admin, value as never),
    'providers.register(context)': (value) => service.providers.register(value as never, { providerId: 'kb', description: 'x', create: () => ({}) as never }),
    'providers.register(definition)': (value) => service.providers.register(as(actors.acmeOperator, { companyId: 'acme' }), value as never),
    'hooks.subscribe(kinds)': (value) => service.hooks.subscribe(value as never, { name: 'listener', deliver: () => undefined })(),
    'hooks.subscribe(subscriber)': (value) => service.hooks.subscribe('manual_capture', value as never)(),
    'hooks.enqueue(kind)': (value) => service.hooks.enqueue(value as never, system, { text: 'x' } as never),
    'hooks.enqueue(input)': (value) => service.hooks.enqueue('manual_capture', system, value as never),
    'startWorker(options)': async (value) => (await service.startWorker(value as never)).stop(),
    'createMemoryTools(host)': (value) => createMemoryTools(value as never),
    'createMemoryTools(options)': (value) => createMemoryTools(service, value as never),
  };
  for (const method of ['capture', 'upsertRecords', 'query', 'list', 'get', 'forget', 'correct', 'profile', 'listProviderExtractionJobs', 'retryExtractionJob', 'refreshExtractionJobs', 'listExtractionJobs', 'logRefusedCall']) {
    calls[`runtime.${method}(request)`] = (value) => runtime()[method]!(value);
  }
  for (const method of ['createBinding', 'getBinding', 'deleteBinding', 'removeTarget', 'resolve', 'listActivity']) {
    calls[`control.${method}(first)`] = (value) => control()[method]!(value);
  }
  calls['control.updateBinding(input)'] = (value) => control().updateBinding!('default', value);
  calls['control.setTarget(target)'] = (value) => control().setTarget!(value, 'default');
  calls['control.setTarget(key)'] = (value) => control().setTarget!({ targetType: 'agent', targetId: 'planner' }, value);
  for (const method of ['listOperations', 'getOperation', 'countOperations', 'listHookDeliveries', 'listExtractionJobs', 'metrics']) {
    calls[`explorer.${method}(request)`] = (value) => explorer()[method]!(value);
  }
  for (const method of ['recordFinanceEvent', 'listCostEvents', 'listFinanceEvents', 'summarize']) {
    calls[`costs.${method}(request)`] = (value) => costs()[method]!(value);
  }
  for (const method of ['preRunHydrate', 'postRunCapture', 'issueCommentCapture', 'issueDocumentCapture', 'manualCapture']) {
    calls[`hooks.${method}(context)`] = (value) => hooks[method]!(value, { agentId: 'planner', query: 'q', text: 't', heartbeatRunId: 'r', output: { text: 't' } });
    calls[`hooks.${method}(input)`] = (value) => hooks[method]!(system, value);
  }
  for (const tool of createMemoryTools(service)) {
    calls[`tool ${tool.name}(context)`] = (value) => tool.execute({ query: 'q', text: 't', recordId: 'memory:m', recordIds: ['memory:m'] }, value as never);
  }
  return calls;
}

describe('every public method of the service answers malformed input with a memplane error, and writes nothing', () => {
  let directory: string;
  let service: MemoryService;
  let database: Database.Database;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'memplane-surface-'));
    service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename: join(directory, 'service.db') }),
      dataDirectory: directory,
      providers: testProviders,
      ...deterministicSettings(),
    });
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await service.whenIdle();
    database = new Database(join(directory, 'service.db'), { readonly: true });
  });
  afterAll(async () => {
    database.close();
    await service.close();
    rmSync(directory, { recursive: true, force: true });
  });

  // The audit trail records refused calls on purpose (a failed operation, a refused binding): it is
  // what the service writes about a malformed call, never a write the call asked for.
  const auditTables = new Set(['memory_operations', 'memory_operation_hours', 'memory_activity']);

  /** The row count of every table of the store but the audit trail's. */
  async function rowCounts(): Promise<Record<string, number>> {
    await service.whenIdle();
    const tables = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>)
      .filter(({ name }) => !auditTables.has(name));
    return Object.fromEntries(tables.map(({ name }) => [name, (database.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  }

  it('null, undefined and any other value, in every argument of every method', async () => {
    const untyped: string[] = [];
    for (const [name, call] of Object.entries(publicCalls(service))) {
      await fc.assert(
        fc.asyncProperty(garbage, async (value) => {
          const before = await rowCounts();
          let error: unknown;
          try {
            await call(value);
          } catch (caught) {
            error = caught;
          }
          if (error === undefined) return;
          if (!MemoryError.isInstance(error)) untyped.push(`${name} with ${fc.stringify(value)}: ${String(error)}`);
          expect(await rowCounts(), `${name} with ${fc.stringify(value)} failed (${String(error)}) but wrote`).toEqual(before);
        }),
        { numRuns: 40, examples: hostile.map((value) => [value] as [unknown]) },
      );
    }
    expect(untyped).toEqual([]);
  }, 30_000);
});
