import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textOf } from './test-support/mcp-test-service';

const bin = fileURLToPath(new URL('./memplane-mcp.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.workspace-sources.json', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

/** The spawned `memplane-mcp` bin (from source through tsx), as an MCP client launches it. */
function spawnedServer(folder: string, environment: Record<string, string>, args: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [tsxCli, '--tsconfig', tsconfig, bin, '--data-dir', folder, ...args],
    env: { PATH: process.env.PATH ?? '', ...environment },
    stderr: 'pipe',
  });
}

describe('memplane-mcp on stdio (a spawned server, a real SDK client)', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-stdio-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('starts zero-config on markdown, runs note, search, correct, get and forget, and logs every call for the bound agent and client', async () => {
    // Paperclip's own run variables bind the scope; the model never names it.
    const transport = spawnedServer(folder, {
      PAPERCLIP_COMPANY_ID: 'acme',
      PAPERCLIP_AGENT_ID: 'planner',
      PAPERCLIP_RUN_ID: 'run-1',
      PAPERCLIP_TASK_ID: 'ACME-3',
    });
    const client = new Client({ name: 'claude-code', version: '2.1.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory_search', 'memory_note', 'memory_forget', 'memory_correct', 'memory_list', 'memory_get', 'memory_profile']));

      const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'The staging database is reset every Sunday.' } });
      const [recordId] = (noted.structuredContent as { recordIds: string[] }).recordIds;
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'staging database reset' } });
      expect(textOf(found)).toContain('every Sunday');
      const corrected = await client.callTool({ name: 'memory_correct', arguments: { recordId, text: 'The staging database is reset every Saturday.' } });
      // Markdown keeps history by superseding: the correction is a new record id, the old one its history.
      const correctedId = (corrected.structuredContent as { recordId: string }).recordId;
      const read = await client.callTool({ name: 'memory_get', arguments: { recordId: correctedId } });
      expect((read.structuredContent as { record: { text: string } }).record.text).toBe('The staging database is reset every Saturday.');

      const widened = await client.callTool({ name: 'memory_search', arguments: { query: 'staging', companyId: 'globex' } });
      expect(widened.isError).toBe(true);
      const otherIssue = await client.callTool({ name: 'memory_list', arguments: { issueId: 'ACME-4' } });
      expect(textOf(otherIssue)).toContain('MEMORY_SCOPE_VIOLATION');

      expect((await client.callTool({ name: 'memory_forget', arguments: { recordIds: [recordId, correctedId] } })).isError).toBeFalsy();
      for (const id of [recordId, correctedId]) {
        expect((await client.callTool({ name: 'memory_get', arguments: { recordId: id } })).structuredContent).toMatchObject({ record: null });
      }
      const after = await client.callTool({ name: 'memory_search', arguments: { query: 'staging database reset' } });
      expect(after.structuredContent).toMatchObject({ results: [] });
    } finally {
      await client.close();
    }

    // The server flushed its log when the client hung up: read it from the data folder.
    const service = await createMemoryService({ store: createSqliteMemoryServiceStore({ filename: join(folder, 'memplane.db') }) });
    try {
      const log = await service.explorer({ actor: { kind: 'company', companyId: 'acme' } }).listOperations({ runId: 'run-1' });
      expect(log.items.map((entry) => [entry.operation, entry.status, entry.errorCode]).reverse()).toEqual([
        ['record_upsert', 'succeeded', undefined],
        ['query', 'succeeded', undefined],
        ['correct', 'succeeded', undefined],
        ['get', 'succeeded', undefined],
        // The two refused calls are logged as failures of their tools, naming the field and never its value.
        ['query', 'failed', 'MEMORY_VALIDATION'],
        ['list', 'failed', 'MEMORY_SCOPE_VIOLATION'],
        ['forget', 'succeeded', undefined],
        ['get', 'succeeded', undefined],
        ['get', 'succeeded', undefined],
        ['query', 'succeeded', undefined],
      ]);
      expect(log.items.filter((entry) => entry.status === 'failed').map((entry) => entry.details?.refusedFields)).toEqual([['issueId'], ['companyId']]);
      expect(JSON.stringify(log.items)).not.toMatch(/globex|ACME-4/);
      for (const entry of log.items) {
        expect(entry.actor).toEqual({ kind: 'agent', id: 'planner' });
        expect(entry.details?.client).toEqual({ name: 'claude-code', version: '2.1.0' });
      }
      expect(log.items.at(-1)?.source).toMatchObject({ kind: 'manual_note', issueId: 'ACME-3', runId: 'run-1' });
    } finally {
      await service.close();
    }
  }, 60_000);

  it('lets two servers share one data folder, as two editor windows would', async () => {
    const clients = await Promise.all(
      ['planner', 'builder'].map(async (agentId) => {
        const client = new Client({ name: `window-${agentId}`, version: '1' });
        await client.connect(spawnedServer(folder, { MEMPLANE_COMPANY_ID: 'acme', MEMPLANE_AGENT_ID: agentId }));
        return { agentId, client };
      }),
    );
    try {
      await Promise.all(clients.map(({ agentId, client }) => client.callTool({ name: 'memory_note', arguments: { text: `${agentId} owns the deploy checklist.` } })));
      for (const { agentId, client } of clients) {
        const own = await client.callTool({ name: 'memory_search', arguments: { query: 'deploy checklist', reach: 'agent' } });
        expect(own.isError).toBeFalsy();
        expect((own.structuredContent as { results: Array<{ text: string }> }).results.map((result) => result.text)).toEqual([`${agentId} owns the deploy checklist.`]);
      }
    } finally {
      await Promise.all(clients.map(({ client }) => client.close()));
    }
  }, 60_000);

  it('refuses to start when the flags and the environment name different companies, or none', async () => {
    async function startupError(environment: Record<string, string>, args: string[] = []): Promise<string> {
      const transport = spawnedServer(folder, environment, args);
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = new Promise<void>((resolveExit) => (transport.onclose = resolveExit));
      await expect(new Client({ name: 'test', version: '1' }).connect(transport)).rejects.toThrow();
      await exited;
      return stderr;
    }
    const conflicting = await startupError({ PAPERCLIP_COMPANY_ID: 'acme', PAPERCLIP_AGENT_ID: 'planner' }, ['--company', 'globex']);
    expect(conflicting).toMatch(/companyId: --company and PAPERCLIP_COMPANY_ID name different values/);
    const unbound = await startupError({});
    expect(unbound).toMatch(/companyId: is required: pass --company or set MEMPLANE_COMPANY_ID or PAPERCLIP_COMPANY_ID/);
  }, 60_000);
});
