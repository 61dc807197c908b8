import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MemoryOperationEntry, MemoryOperationFilter } from '../memory-service-records';
import type { MemoryServiceStore } from '../memory-service-store';
import { createStoreFixtures } from '../../testing/store-fixtures';
import { createSqliteMemoryServiceStore } from './sqlite-memory-service-store';
import { applySqliteMigrations, sqliteMigrations } from './sqlite-migrations';

// The plan of every statement a page of the operation log runs, read with EXPLAIN QUERY PLAN
// from the statements the store itself prepared (caught on better-sqlite3's Statement), so the
// test sees what runs and not a copy of it. SQLite plans are deterministic for one schema.

const directory = mkdtempSync(join(tmpdir(), 'memplane-operation-plans-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const Statement = new BetterSqlite3(':memory:').prepare('SELECT 1').constructor as { prototype: BetterSqlite3.Statement };

/** The statements reading `memory_operations` newest first that `read` ran, with their values. */
async function pageStatements(read: () => Promise<unknown>): Promise<Array<{ sql: string; values: unknown[] }>> {
  const all = vi.spyOn(Statement.prototype, 'all');
  try {
    await read();
    return all.mock.calls
      .map((args, call) => ({ sql: (all.mock.contexts[call] as BetterSqlite3.Statement).source, values: args as unknown[] }))
      .filter(({ sql }) => /FROM memory_operations\b/.test(sql) && /ORDER BY position DESC/.test(sql));
  } finally {
    all.mockRestore();
  }
}

/** The plan lines of `sql` with `values`, on a second connection to the same file. */
function planOf(filename: string, sql: string, values: unknown[]): string[] {
  const database = new BetterSqlite3(filename, { readonly: true });
  try {
    return (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as Array<{ detail: string }>).map((row) => row.detail);
  } finally {
    database.close();
  }
}

/**
 * Asserts that each statement a page ran searches an index by the company and by one of
 * `columns` (none: by the company and position alone), and neither scans the table nor sorts.
 */
async function expectIndexedPages(filename: string, read: () => Promise<unknown>, columns: string[]): Promise<string[]> {
  const statements = await pageStatements(read);
  expect(statements.length).toBeGreaterThan(0);
  const used: string[] = [];
  for (const { sql, values } of statements) {
    const plan = planOf(filename, sql, values);
    const search = plan.map((line) => /^SEARCH memory_operations USING (?:COVERING )?INDEX (\w+) \((.*)\)$/.exec(line)).find((match) => match !== null);
    expect(search, `${sql}\n${plan.join('\n')}`).toBeDefined();
    const constraint = search![2]!;
    expect(constraint.startsWith('company_id=?'), plan.join('\n')).toBe(true);
    if (columns.length > 0) expect(columns.some((column) => constraint.includes(`${column}=?`)), `${columns.join('|')}: ${plan.join('\n')}`).toBe(true);
    expect(plan.filter((line) => line.startsWith('SCAN') || line.includes('TEMP B-TREE')), plan.join('\n')).toEqual([]);
    used.push(search![1]!);
  }
  return used;
}

/** A small log with every filter value present: common values on most entries, rare ones on few. */
function sampleLog(): MemoryOperationEntry[] {
  const fixtures = createStoreFixtures();
  return Array.from({ length: 400 }, (_, index) =>
    fixtures.operation({
      companyId: index % 9 === 0 ? 'globex' : 'acme',
      bindingId: index % 50 === 0 ? 'bnd_rare' : `bnd_${index % 3}`,
      operation: index % 40 === 0 ? 'profile' : index % 2 === 0 ? 'query' : 'capture',
      status: index % 25 === 0 ? 'failed' : 'succeeded',
      // Who called: mostly agents, now and then the scheduler; an agent's reads often name no agent.
      actor: index % 7 === 0 ? { kind: 'system', id: 'heartbeat' } : { kind: 'agent', id: `agent-${index % 5}` },
      scope: {
        companyId: index % 9 === 0 ? 'globex' : 'acme',
        agentId: `agent-${index % 4}`,
        projectId: `project-${index % 3}`,
        issueId: `issue-${index % 20}`,
        runId: `run-${Math.floor(index / 10)}`,
      },
      ...(index % 5 === 0 ? { source: { kind: index % 50 === 0 ? 'issue_document' : 'run', companyId: 'acme' } } : {}),
      ...(index % 2 === 0 ? { heartbeatRunId: `heartbeat-${Math.floor(index / 8)}` } : {}),
      // Hours apart, so date ranges narrow to position ranges through the hour index.
      createdAt: fixtures.time(index * 900),
    }),
  );
}

const company = { companyId: 'acme' } as const;
const day = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * 3600_000).toISOString();

/** Each filter the explorer offers, with the columns an index must search it by. */
const filterCases: Array<{ name: string; filter: MemoryOperationFilter; columns: string[] }> = [
  { name: 'company alone', filter: company, columns: [] },
  { name: 'agent', filter: { ...company, agentId: 'agent-1' }, columns: ['agent_id'] },
  { name: 'actor', filter: { ...company, actorId: 'agent-2' }, columns: ['actor_id'] },
  { name: 'actor and its kind', filter: { ...company, actorId: 'heartbeat', actorKind: 'system' }, columns: ['actor_id'] },
  { name: 'issue', filter: { ...company, issueId: 'issue-3' }, columns: ['issue_id'] },
  { name: 'project', filter: { ...company, projectId: 'project-2' }, columns: ['project_id'] },
  { name: 'run (scope run or heartbeat run)', filter: { ...company, runId: 'run-7' }, columns: ['run_id', 'heartbeat_run_id'] },
  { name: 'source kind', filter: { ...company, sourceKind: 'run' }, columns: ['source_kind'] },
  { name: 'operation', filter: { ...company, operation: 'capture' }, columns: ['operation'] },
  { name: 'status failed', filter: { ...company, status: 'failed' }, columns: ['status'] },
  { name: 'status succeeded', filter: { ...company, status: 'succeeded' }, columns: ['status'] },
  { name: 'binding', filter: { ...company, bindingId: 'bnd_1' }, columns: ['binding_id'] },
  { name: 'date range', filter: { ...company, from: day(20), to: day(40) }, columns: [] },
  { name: 'from alone', filter: { ...company, from: day(50) }, columns: [] },
  { name: 'to alone', filter: { ...company, to: day(10) }, columns: [] },
  { name: 'project in a date range', filter: { ...company, projectId: 'project-1', from: day(20), to: day(60) }, columns: ['project_id'] },
  { name: 'run and operation', filter: { ...company, runId: 'heartbeat-3', operation: 'query' }, columns: ['run_id', 'heartbeat_run_id'] },
  { name: 'binding, operation and status', filter: { ...company, bindingId: 'bnd_1', operation: 'query', status: 'succeeded' }, columns: ['binding_id', 'operation', 'status'] },
];

describe('SQLite operation log: every explorer filter reads an index, newest first', () => {
  const filename = join(directory, 'plans.db');
  let store: MemoryServiceStore;
  beforeAll(async () => {
    store = createSqliteMemoryServiceStore({ filename });
    await store.migrate();
    await store.appendOperations(sampleLog());
  });
  afterAll(async () => store.close());

  for (const { name, filter, columns } of filterCases) {
    it(`${name}: the first page and the next one`, async () => {
      const first = await store.listOperations(filter, { limit: 3 });
      expect(first.nextAfter).toBeDefined();
      await expectIndexedPages(filename, () => store.listOperations(filter, { limit: 3 }), columns);
      await expectIndexedPages(filename, () => store.listOperations(filter, { limit: 3, after: first.nextAfter! }), columns);
    });
  }

  it('with several filters, reads the index that holds fewest entries for its value', async () => {
    // agent-1 is on a quarter of the log, failures on one entry in 25: the status index is read.
    const statusFirst = await expectIndexedPages(filename, () => store.listOperations({ ...company, agentId: 'agent-1', status: 'failed' }, { limit: 5 }), ['status']);
    expect(statusFirst).toEqual(['memory_operations_status']);
    // A common operation with a rare binding: the binding index, though operation usually ranks first.
    const bindingFirst = await expectIndexedPages(filename, () => store.listOperations({ ...company, operation: 'query', bindingId: 'bnd_rare' }, { limit: 5 }), ['binding_id']);
    expect(bindingFirst).toEqual(['memory_operations_binding']);
  });
});

/**
 * Whether the statement compares a filter value before it reads the table: SQLite then checks
 * the second filter from the index entry (the row read is deferred until an entry matches).
 */
function checksFiltersInIndex(filename: string, sql: string, values: unknown[]): boolean {
  const database = new BetterSqlite3(filename, { readonly: true });
  try {
    const program = database.prepare(`EXPLAIN ${sql}`).all(...values) as Array<{ opcode: string; p1: number; p4: unknown }>;
    // The table's cursor is opened with its column count, an index's with its key description.
    const tableCursor = program.find((step) => step.opcode === 'OpenRead' && !String(step.p4).startsWith('k('))?.p1;
    const seek = program.findIndex((step) => step.opcode === 'DeferredSeek');
    const compare = program.findIndex((step, at) => at > seek && (step.opcode === 'Ne' || step.opcode === 'Eq'));
    if (tableCursor === undefined || seek === -1 || compare === -1) return false;
    return !program.slice(seek, compare).some((step) => step.opcode === 'Column' && step.p1 === tableCursor);
  } finally {
    database.close();
  }
}

describe('SQLite operation log: a second filter is checked in the index', () => {
  const filename = join(directory, 'residual.db');
  let store: MemoryServiceStore;
  beforeAll(async () => {
    store = createSqliteMemoryServiceStore({ filename });
    await store.migrate();
    await store.appendOperations(sampleLog());
  });
  afterAll(async () => store.close());

  for (const [name, filter] of [
    ['source kind and operation', { ...company, sourceKind: 'run', operation: 'query' }],
    ['operation and binding', { ...company, operation: 'capture', bindingId: 'bnd_2' }],
    ['status and source kind', { ...company, status: 'failed', sourceKind: 'run' }],
    ['project, operation and status', { ...company, projectId: 'project-1', operation: 'query', status: 'succeeded' }],
    ['actor and operation', { ...company, actorId: 'agent-3', operation: 'capture' }],
    ['actor and its kind', { ...company, actorId: 'agent-3', actorKind: 'agent' }],
  ] as const) {
    it(`${name}: compared from the index entry, the row read only for a match`, async () => {
      const statements = await pageStatements(() => store.listOperations(filter, { limit: 3 }));
      expect(statements).toHaveLength(1);
      expect(checksFiltersInIndex(filename, statements[0]!.sql, statements[0]!.values)).toBe(true);
    });
  }
});

describe('SQLite operation log: an existing database gets the filter indexes when it migrates', () => {
  it('indexes a log written before, and its pages read them', async () => {
    const filename = join(directory, 'existing.db');
    const before = new BetterSqlite3(filename);
    applySqliteMigrations(
      before,
      sqliteMigrations.filter((migration) => migration.version <= 4),
    );
    before.close();
    const store = createSqliteMemoryServiceStore({ filename });
    await store.appendOperations(sampleLog());
    await store.migrate();
    const database = new BetterSqlite3(filename, { readonly: true });
    const indexes = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_operations'").all() as Array<{ name: string }>).map(
      (row) => row.name,
    );
    database.close();
    expect(indexes).toEqual(
      expect.arrayContaining(['memory_operations_binding', 'memory_operations_project', 'memory_operations_source_kind', 'memory_operations_operation', 'memory_operations_status']),
    );
    await expectIndexedPages(filename, () => store.listOperations({ ...company, projectId: 'project-2' }, { limit: 3 }), ['project_id']);
    expect((await store.listOperations({ ...company, projectId: 'project-2' }, { limit: 500 })).items).toHaveLength(
      sampleLog().filter((entry) => entry.companyId === 'acme' && entry.scope.projectId === 'project-2').length,
    );
    await store.close();
  });
});

describe('SQLite operation log: an existing database gets the actor index when it migrates', () => {
  it('indexes a log written under the schema before it, and finds each actor\'s entries through it', async () => {
    const filename = join(directory, 'before-actor.db');
    const before = new BetterSqlite3(filename);
    applySqliteMigrations(
      before,
      sqliteMigrations.filter((migration) => migration.version <= 5),
    );
    // Entries written under that schema, straight into its table: an agent's search with no agent in its scope among them.
    const fixtures = createStoreFixtures();
    const old = [
      fixtures.operation({ actor: { kind: 'agent', id: 'planner' }, scope: { companyId: 'acme' } }),
      fixtures.operation({ actor: { kind: 'agent', id: 'planner' }, status: 'failed', errorCode: 'MEMORY_SCOPE_VIOLATION', scope: { companyId: 'acme' } }),
      fixtures.operation({ actor: { kind: 'system', id: 'heartbeat' }, scope: { companyId: 'acme', agentId: 'planner' } }),
    ];
    const insert = before.prepare(
      `INSERT INTO memory_operations (id, company_id, operation, status, error_code, actor_kind, actor_id, agent_id, usage_json, latency_ms, dropped_out_of_scope, warnings_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]', 1, 0, '[]', ?)`,
    );
    for (const entry of old) {
      insert.run(entry.id, entry.companyId, entry.operation, entry.status, entry.errorCode ?? null, entry.actor.kind, entry.actor.id, entry.scope.agentId ?? null, entry.createdAt);
    }
    const indexesBefore = (before.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_operations'").all() as Array<{ name: string }>).map((row) => row.name);
    expect(indexesBefore).not.toContain('memory_operations_actor');
    before.close();

    const store = createSqliteMemoryServiceStore({ filename });
    await store.migrate();
    const database = new BetterSqlite3(filename, { readonly: true });
    const indexes = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_operations'").all() as Array<{ name: string }>).map((row) => row.name);
    database.close();
    expect(indexes).toContain('memory_operations_actor');
    const found = await expectIndexedPages(filename, () => store.listOperations({ ...company, actorId: 'planner', actorKind: 'agent' }, { limit: 10 }), ['actor_id']);
    expect(found).toEqual(['memory_operations_actor']);
    expect((await store.listOperations({ ...company, actorId: 'planner' }, { limit: 10 })).items.map((entry) => entry.id)).toEqual([old[1]!.id, old[0]!.id]);
    expect((await store.listOperations({ ...company, agentId: 'planner' }, { limit: 10 })).items.map((entry) => entry.id)).toEqual([old[2]!.id]);
    await store.close();
  });
});

afterEach(() => vi.restoreAllMocks());
