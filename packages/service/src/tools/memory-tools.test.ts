import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools, type MemoryToolContext, type MemoryToolDefinition, type MemoryToolResult } from './memory-tools';

function succeeded(result: MemoryToolResult): Extract<MemoryToolResult, { isError: false }> {
  if (result.isError) throw new TypeError(`expected success, got ${result.content}`);
  return result;
}

describe('agent tools', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let tools: Map<string, MemoryToolDefinition>;
  const planner = { ...as(actors.planner, { heartbeatRunId: 'run-3' }), issueId: 'ACME-1' };

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    tools = new Map(createMemoryTools(service).map((tool) => [tool.name, tool]));
  });
  afterEach(async () => cleanUp());

  const call = (name: string, input: unknown, context: MemoryToolContext = planner) => tools.get(name)!.execute(input, context);

  it('are the six tools of the plan, each with a JSON Schema and a dot-free function name', () => {
    expect([...tools.keys()]).toEqual(['memory.search', 'memory.note', 'memory.forget', 'memory.correct', 'memory.list', 'memory.get']);
    const search = tools.get('memory.search')!;
    expect(search.functionName).toBe('memory_search');
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' }, topK: { type: 'integer', maximum: 20 }, reach: { enum: ['company', 'agent'] } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(search.inputSchema).not.toHaveProperty('$schema');
    for (const tool of tools.values()) expect(tool.description.length).toBeGreaterThan(20);
  });

  it('note, search, correct, get, list and forget a memory through the runtime API', async () => {
    const noted = succeeded(await call('memory.note', { text: 'The billing service deploys on Tuesdays.', kind: 'decision', tags: ['billing'] }));
    const [recordId] = (noted.data as { recordIds: string[] }).recordIds;
    expect(recordId).toMatch(/^memory:mem_/);

    const found = succeeded(await call('memory.search', { query: 'when does billing deploy' }));
    expect(found.content).toContain(`[${recordId}] The billing service deploys on Tuesdays.`);
    expect(found.data).toMatchObject({
      results: [{ recordId, metadata: { kind: 'decision', tags: ['billing'] }, source: { kind: 'manual_note', issueId: 'ACME-1', runId: 'run-3' } }],
    });

    succeeded(await call('memory.correct', { recordId, text: 'The billing service deploys on Wednesdays.', reason: 'moved by the release team' }));
    const read = succeeded(await call('memory.get', { recordId }));
    expect(read.content).toContain('Wednesdays');
    expect(succeeded(await call('memory.list', {})).content).toContain('Wednesdays');

    succeeded(await call('memory.forget', { recordIds: [recordId] }));
    expect(succeeded(await call('memory.get', { recordId })).content).toBe('Not found.');
    expect(succeeded(await call('memory.search', { query: 'billing' })).content).toBe('No memories matched.');

    const log = await service.explorer(as(actors.acmeAdmin)).listOperations({ agentId: 'planner' });
    expect(log.items.map((entry) => entry.operation)).toEqual(['record_upsert']);
    const all = await service.explorer(as(actors.acmeAdmin)).listOperations({ runId: 'run-3' });
    expect(all.items.map((entry) => entry.operation).reverse()).toEqual(['record_upsert', 'query', 'correct', 'get', 'list', 'forget', 'get', 'query']);
  });

  it('reach the agent own memories only when asked', async () => {
    succeeded(await call('memory.note', { text: 'Planner prefers short status updates.' }));
    await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: [{ text: 'Company status updates are weekly.' }] });
    expect((succeeded(await call('memory.search', { query: 'status updates' })).data as { results: unknown[] }).results).toHaveLength(2);
    const own = succeeded(await call('memory.search', { query: 'status updates', reach: 'agent' }));
    expect(own.content).toContain('Planner prefers');
    expect(own.content).not.toContain('weekly');
  });

  it('narrow a read to a project or issue inside the bound scope, and refuse one outside it', async () => {
    const inProject = { ...planner, projectId: 'billing' };
    succeeded(await call('memory.note', { text: 'Billing invoices close on the 28th.' }, inProject));
    succeeded(await call('memory.note', { text: 'Invoices of the design team close monthly.' }, { ...as(actors.planner), projectId: 'design' }));
    const narrowed = succeeded(await call('memory.search', { query: 'invoices close', projectId: 'billing' }));
    expect(narrowed.content).toContain('28th');
    expect(narrowed.content).not.toContain('design team');
    const listed = succeeded(await call('memory.list', { issueId: 'ACME-1', projectId: 'billing' }, inProject));
    expect(listed.content).toContain('28th');
    expect(listed.content).not.toContain('design team');

    // Bound to the billing project and issue ACME-1: another project or issue fails closed, and nothing is read.
    const before = (await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'query', status: 'succeeded' })).items.length;
    const otherProject = await call('memory.search', { query: 'invoices', projectId: 'design' }, inProject);
    expect(otherProject).toMatchObject({ isError: true, error: { code: 'MEMORY_SCOPE_VIOLATION' }, content: expect.stringContaining('projectId') });
    const otherIssue = await call('memory.list', { issueId: 'ACME-2' }, inProject);
    expect(otherIssue).toMatchObject({ isError: true, error: { code: 'MEMORY_SCOPE_VIOLATION' }, content: expect.stringContaining('issueId') });
    expect((await service.explorer(as(actors.acmeAdmin)).listOperations({ operation: 'query', status: 'succeeded' })).items).toHaveLength(before);
    // The refusals are logged as failed operations naming the field, never the value the model asked for.
    const refused = await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' });
    expect(refused.items.map((entry) => [entry.operation, entry.errorCode, entry.details?.refusedFields]).reverse()).toEqual([
      ['query', 'MEMORY_SCOPE_VIOLATION', ['projectId']],
      ['list', 'MEMORY_SCOPE_VIOLATION', ['issueId']],
    ]);
    expect(JSON.stringify(refused.items)).not.toMatch(/design|ACME-2/);
    const widening = await call('memory.search', { query: 'invoices', companyId: 'globex' }, inProject);
    expect(widening).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' } });
  });

  it('log the client a call came through beside the actor, and refuse a malformed one', async () => {
    const viaClient = { ...planner, client: { name: 'claude-code', version: '2.1.0' } };
    succeeded(await call('memory.note', { text: 'Standups are at nine.' }, viaClient));
    succeeded(await call('memory.search', { query: 'standups' }, viaClient));
    const log = await service.explorer(as(actors.acmeAdmin)).listOperations({ runId: 'run-3' });
    expect(log.items.map((entry) => [entry.actor, entry.details?.client])).toEqual([
      [{ kind: 'agent', id: 'planner' }, { name: 'claude-code', version: '2.1.0' }],
      [{ kind: 'agent', id: 'planner' }, { name: 'claude-code', version: '2.1.0' }],
    ]);
    await expect(call('memory.search', { query: 'x' }, { ...planner, client: { name: 'bad\u0000name' } })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });

  it('answer bad input and memory errors with an error result the model can read', async () => {
    const badInput = await call('memory.search', { query: '', extra: true });
    expect(badInput).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' } });
    const badId = await call('memory.get', { recordId: 'no-separator' });
    expect(badId).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' }, content: expect.stringContaining('recordId') });
    const missing = await call('memory.correct', { recordId: 'memory:mem_999999', text: 'x' });
    expect(missing).toMatchObject({ isError: true, error: { code: 'MEMORY_NOT_FOUND' } });
    const foreign = await call('memory.search', { query: 'x' }, { ...as(actors.scout), issueId: 'G-1' });
    expect(foreign).toMatchObject({ isError: true, error: { code: 'MEMORY_CONFIGURATION' } });
  });

  it('page through memory.list with the cursor it prints', async () => {
    await service.runtime(as(actors.acmeAdmin)).upsertRecords({ records: Array.from({ length: 3 }, (_, index) => ({ text: `Fact number ${index}.` })) });
    const first = succeeded(await call('memory.list', { limit: 2 }));
    const { nextCursor } = first.data as { nextCursor: string };
    expect(first.content).toContain(`cursor "${nextCursor}"`);
    const second = succeeded(await call('memory.list', { limit: 2, cursor: nextCursor }));
    expect(second.content).toContain('Fact number 2.');
    expect(second.data).not.toHaveProperty('nextCursor');
  });
});
