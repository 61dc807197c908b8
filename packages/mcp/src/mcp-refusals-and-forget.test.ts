import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryService } from '@memplane/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemplaneHost } from '@memplane/host';
import { connectInProcess, textOf } from './test-support/mcp-test-service';

/** Every file under a folder, recursively. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the MCP server on the embedded default (SQLite and markdown in a data folder)', () => {
  let folder: string;
  let service: MemoryService;
  const acme = { actor: { kind: 'company', companyId: 'acme' } } as const;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-refusals-'));
    const host = await openMemplaneHost({ dataDirectory: folder });
    service = host.service;
    await host.ensureDefaultBinding('acme');
    await host.ensureDefaultBinding('globex');
  });
  afterEach(async () => {
    await service.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses a model-supplied company or agent and logs each refusal as a failed operation of the tool, with the agent and the client', async () => {
    const client = await connectInProcess(service, { companyId: 'acme', agentId: 'planner', runId: 'run-r' }, 'cursor');
    try {
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'merger', companyId: 'globex' } });
      expect(search.isError).toBe(true);
      expect(textOf(search)).toContain('[MEMORY_VALIDATION]');
      const note = await client.callTool({ name: 'memory_note', arguments: { text: 'Planted into globex.', agentId: 'scout', scope: { companyId: 'globex' } } });
      expect(note.isError).toBe(true);
      const profile = await client.callTool({ name: 'memory_profile', arguments: { companyId: 'globex' } });
      expect(profile.isError).toBe(true);
    } finally {
      await client.close();
    }
    await service.flush();
    const log = (await service.explorer(acme).listOperations({ runId: 'run-r' })).items.reverse();
    expect(log.map((entry) => [entry.operation, entry.status, entry.errorCode, entry.details?.refusedBy, entry.details?.refusedFields])).toEqual([
      ['query', 'failed', 'MEMORY_VALIDATION', 'memory.search', ['companyId']],
      ['record_upsert', 'failed', 'MEMORY_VALIDATION', 'memory.note', ['agentId', 'scope']],
      ['profile', 'failed', 'MEMORY_VALIDATION', 'memory.profile', ['companyId']],
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({ companyId: 'acme', actor: { kind: 'agent', id: 'planner' }, details: { client: { name: 'cursor', version: '1.0.0' } } });
    }
    // Field names only: the company the model named and the text it tried to plant are not in the log.
    expect(JSON.stringify(log)).not.toMatch(/globex|scout|Planted|merger/);
    expect((await service.explorer({ actor: { kind: 'company', companyId: 'globex' } }).listOperations({})).items).toEqual([]);
  });

  it.each(['new', 'old'] as const)('forgets every version of a corrected markdown memory when the %s id is forgotten', async (which) => {
    const client = await connectInProcess(service, { companyId: 'acme', agentId: 'planner' });
    try {
      const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'The vault combination is 31-42-77.' } });
      const [oldId] = (noted.structuredContent as { recordIds: string[] }).recordIds;
      const corrected = await client.callTool({ name: 'memory_correct', arguments: { recordId: oldId, text: 'The vault combination changed; ask the office manager.' } });
      const newId = (corrected.structuredContent as { recordId: string }).recordId;
      expect(newId).not.toBe(oldId);
      expect((await client.callTool({ name: 'memory_forget', arguments: { recordIds: [which === 'new' ? newId : oldId] } })).isError).toBeFalsy();

      for (const id of [oldId, newId]) {
        expect((await client.callTool({ name: 'memory_get', arguments: { recordId: id } })).structuredContent).toMatchObject({ record: null });
      }
      expect((await client.callTool({ name: 'memory_search', arguments: { query: 'vault combination' } })).structuredContent).toMatchObject({ results: [] });
    } finally {
      await client.close();
    }
    await service.close();
    // Neither version's text is in any file of the data folder: markdown, index, embedding cache, the service's own SQLite file.
    const files = await filesUnder(folder);
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const bytes = await readFile(file);
      expect(bytes.includes('31-42-77'), file).toBe(false);
      expect(bytes.includes('ask the office manager'), file).toBe(false);
    }
    service = (await openMemplaneHost({ dataDirectory: folder })).service;
  });
});
