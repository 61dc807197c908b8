import type { MemoryService } from '@memplane/service';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectInProcess, createTwoCompanyService, textOf } from './test-support/mcp-test-service';

describe('the MCP server over the service tools', () => {
  let service: MemoryService;
  let client: Client;
  const scope = { companyId: 'acme', agentId: 'planner', issueId: 'ACME-7', runId: 'run-9' };

  beforeEach(async () => {
    service = await createTwoCompanyService('memory');
    client = await connectInProcess(service, scope);
  });
  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it('lists the tools with dot-free names, strict input schemas, output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(
      ['memory_correct', 'memory_forget', 'memory_get', 'memory_jobs', 'memory_list', 'memory_note', 'memory_profile', 'memory_search'].sort(),
    );
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.inputSchema.properties ?? {}).not.toHaveProperty('companyId');
      expect(tool.inputSchema.properties ?? {}).not.toHaveProperty('agentId');
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(JSON.stringify(tool)).not.toMatch(/memory\.(search|note|list|get|forget|correct)/);
    }
    expect(byName.get('memory_search')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('memory_get')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('memory_forget')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('memory_note')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.get('memory_search')?.description).toContain('earlier decisions');
    expect(byName.get('memory_note')?.description).toContain('captured automatically');
    expect(byName.get('memory_correct')?.description).toContain('wrong');
    expect(client.getInstructions()).toContain('memory_note');
  });

  it('runs note, search, correct, get and forget with structured content and text', async () => {
    const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'Releases are cut on Thursdays.', kind: 'decision' } });
    expect(noted.isError).toBeFalsy();
    const [recordId] = (noted.structuredContent as { recordIds: string[] }).recordIds;
    expect(textOf(noted)).toContain(recordId);

    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when are releases cut' } });
    expect(found.structuredContent).toMatchObject({ results: [{ recordId, text: 'Releases are cut on Thursdays.', source: { kind: 'manual_note', issueId: 'ACME-7', runId: 'run-9' } }] });
    expect(textOf(found)).toContain('Thursdays');

    const corrected = await client.callTool({ name: 'memory_correct', arguments: { recordId, text: 'Releases are cut on Fridays.', reason: 'moved' } });
    expect(corrected.structuredContent).toMatchObject({ recordId });
    const read = await client.callTool({ name: 'memory_get', arguments: { recordId } });
    expect(read.structuredContent).toMatchObject({ record: { recordId, text: 'Releases are cut on Fridays.' } });

    const forgotten = await client.callTool({ name: 'memory_forget', arguments: { recordIds: [recordId] } });
    expect(forgotten.isError).toBeFalsy();
    expect((await client.callTool({ name: 'memory_get', arguments: { recordId } })).structuredContent).toMatchObject({ record: null });

    // Every call went through the runtime: logged for the bound agent and run, in its company.
    const log = await service.explorer({ actor: { kind: 'company', companyId: 'acme' } }).listOperations({ runId: 'run-9' });
    expect(log.items.map((entry) => entry.operation).reverse()).toEqual(['record_upsert', 'query', 'correct', 'get', 'forget', 'get']);
    expect(new Set(log.items.map((entry) => `${entry.actor.kind}:${entry.actor.id}`))).toEqual(new Set(['agent:planner']));
    // The MCP client, as it named itself in initialize, is logged beside the agent on every operation.
    expect(log.items.map((entry) => entry.details?.client)).toEqual(log.items.map(() => ({ name: 'test-client', version: '1.0.0' })));
    expect(log.items.every((entry) => entry.scope.companyId === 'acme')).toBe(true);
    // And counted: the service's own counters saw the six operations.
    expect(service.metrics().operations).toBe(6);
  });

  it('refuses a model-supplied company or agent argument, and nothing reaches a binding', async () => {
    const before = await service.explorer({ actor: { kind: 'company', companyId: 'globex' } }).listOperations({});
    for (const argument of [{ companyId: 'globex' }, { agentId: 'scout' }, { scope: { companyId: 'globex' } }]) {
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'anything', ...argument } });
      expect(search.isError).toBe(true);
      expect(textOf(search)).toContain('MEMORY_VALIDATION');
      const note = await client.callTool({ name: 'memory_note', arguments: { text: 'planted', ...argument } });
      expect(note.isError).toBe(true);
    }
    const after = await service.explorer({ actor: { kind: 'company', companyId: 'globex' } }).listOperations({});
    expect(after.items).toHaveLength(before.items.length);
    const acme = await service.runtime({ actor: { kind: 'company', companyId: 'acme' } }).list({});
    expect(acme.items.map((item) => item.text)).not.toContain('planted');
  });

  it('narrows a search to the bound issue, and fails closed on another issue', async () => {
    await client.callTool({ name: 'memory_note', arguments: { text: 'The ACME-7 fix needs a migration.' } });
    const narrowed = await client.callTool({ name: 'memory_search', arguments: { query: 'migration', issueId: 'ACME-7' } });
    expect((narrowed.structuredContent as { results: unknown[] }).results).toHaveLength(1);
    const outside = await client.callTool({ name: 'memory_search', arguments: { query: 'migration', issueId: 'ACME-8' } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain('MEMORY_SCOPE_VIOLATION');
  });

  it('never shows another company what it remembers', async () => {
    await service.runtime({ actor: { kind: 'agent', companyId: 'globex', agentId: 'planner' } }).upsertRecords({ records: [{ text: 'Globex launches in May.' }] });
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'launches May' } });
    expect(JSON.stringify(found)).not.toContain('Globex launches');
  });

  it('serves the profile as a tool and a resource, and jobs where the binding lists them', async () => {
    await client.callTool({ name: 'memory_note', arguments: { text: 'Prefers terse status reports.', kind: 'preference' } });
    const profile = await client.callTool({ name: 'memory_profile', arguments: {} });
    expect(profile.isError).toBeFalsy();
    expect(profile.structuredContent).toMatchObject({ summary: expect.any(String), items: expect.any(Array) });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['memplane://profile']);
    const read = await client.readResource({ uri: 'memplane://profile' });
    expect(read.contents[0]).toMatchObject({ uri: 'memplane://profile', mimeType: 'text/plain' });
    const jobs = await client.callTool({ name: 'memory_jobs', arguments: {} });
    expect(jobs.isError).toBeFalsy();
    expect(jobs.structuredContent).toMatchObject({ jobs: expect.any(Array) });
  });
});
